import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "react-router";
import { createClub } from "~/models/clubs/club.server";
import { createClubSchema } from "~/schemas/forms.server";
import { submissionFailure, withPageErrors } from "~/web/page-errors.server";
import { formKey, idempotent } from "~/web/idempotency.server";
import { getSessionUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";
import { readFormData } from "~/web/request-body.server";
import { unauthorized } from "~/utils/errors";

/** /clubs/create's server side: who may start a club, and creating it (route.tsx re-exports it, docs/decisions/0045). */

/** SPEC.md §2 Create club: visitors see 'Sign In Required' (with a way to sign in and come back). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  return data({ signedIn: Boolean(user) });
}

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    const actor = await getSessionUser(request);
    if (!actor) throw unauthorized("Please sign in to create a club");
    const form = await readFormData(request);
    return idempotent(request, actor.id, formKey(form), () => createClubFromForm(actor, form));
  });
}

/** Validate and create the club: 'Club created!' and its page, or the form back with what was typed. */
async function createClubFromForm(actor: { id: number }, form: FormData) {
  const submission = parseWithZod(form, { schema: createClubSchema });
  // The bare Conform reply: this page has one form. createClub's one fixable refusal is its daily
  // limit (429): the form comes back with the message and what was typed; refusals go on to
  // withPageErrors.
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  let club;
  try {
    club = await createClub(actor, submission.value);
  } catch (error) {
    const { result, init } = submissionFailure(submission, { error });
    return data(result, init);
  }
  return redirectWithToast(`/clubs/${club.id}`, {
    title: "Club created!",
    description: `${club.name} is ready for members.`,
    type: "success",
  });
}
