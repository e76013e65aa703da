import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { checkedFrom, PrivateSwitch, TagsInput, tagsFrom } from "~/components/club/fields";
import { Field, FieldErrors } from "~/components/ui/field";
import { createClub } from "~/models/club.server";
import { CLUB_DESCRIPTION_MAX, CLUB_NAME_MAX, CLUB_RULES_MAX, CREATE_LIMIT_MAX, createClubSchema } from "~/schemas/club";
import { APP_NAME } from "~/utils/brand";
import { pageAction } from "~/web/page-action";
import { replyWithError } from "~/web/page-errors.server";
import { unauthorized } from "~/utils/errors";
import { getSessionUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

export const meta: MetaFunction = () => [{ title: `Create Club · ${APP_NAME}` }];

/** SPEC.md §2 Create club: visitors see 'Sign In Required' (with a way to sign in and come back). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  return json({ signedIn: Boolean(user) });
}

export const action = pageAction(async ({ request }) => {
  const actor = await getSessionUser(request);
  if (!actor) throw unauthorized("Please sign in to create a club");
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: createClubSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  let club;
  try {
    club = createClub(actor, submission.value);
  } catch (error) {
    return replyWithError(submission, error);
  }
  return redirectWithToast(`/clubs/${club.id}`, { title: "Club created!", description: `${club.name} is ready for members.`, type: "success" });
});

export default function CreateClubPage() {
  const { signedIn } = useLoaderData<typeof loader>();
  if (!signedIn) {
    return (
      <div className="card mx-auto mt-10 max-w-lg p-8 text-center">
        <h1 className="text-2xl font-bold text-bark-900">Sign In Required</h1>
        <p className="mt-3 text-stone-600">Please sign in to create a club.</p>
        <Link to={`/auth?${new URLSearchParams({ mode: "login", redirectTo: "/clubs/create" })}`} className="btn-primary mt-6">
          Sign In
        </Link>
      </div>
    );
  }
  return <CreateClubForm />;
}

function CreateClubForm() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const [form, fields] = useForm({
    id: "create-club",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createClubSchema }),
  });
  const tagErrors = Object.values(fields.tags.allErrors ?? {}).flat();

  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-6 text-3xl font-bold text-bark-900">Create Club</h1>
      <Form method="post" {...getFormProps(form)} className="card space-y-5 p-6" aria-label="Create Club">
        <FieldErrors id={form.errorId} errors={form.errors} />
        <Field id={fields.name.id} label="Club name" errors={fields.name.errors}>
          <input {...getInputProps(fields.name, { type: "text" })} maxLength={CLUB_NAME_MAX} className="input" placeholder="Big Woods Whitetail Club" />
        </Field>
        <Field id={fields.description.id} label="Description" errors={fields.description.errors}>
          <textarea
            {...getTextareaProps(fields.description)}
            rows={4}
            maxLength={CLUB_DESCRIPTION_MAX}
            className="input"
            placeholder="Who the club is for, where you hunt and what you share"
          />
        </Field>
        <Field id={fields.imageUrl.id} label="Image URL (optional)" errors={fields.imageUrl.errors}>
          <input {...getInputProps(fields.imageUrl, { type: "url" })} inputMode="url" className="input" placeholder="https://" />
        </Field>
        <Field id={fields.location.id} label="Location (optional)" errors={fields.location.errors}>
          <input {...getInputProps(fields.location, { type: "text" })} maxLength={100} className="input" placeholder="City, State" />
        </Field>
        <div>
          <PrivateSwitch id={fields.isPrivate.id} defaultChecked={checkedFrom(fields.isPrivate.initialValue, true)} />
          <FieldErrors errors={fields.isPrivate.errors} />
        </div>
        <Field
          id={fields.memberLimit.id}
          label="Member limit (optional)"
          errors={fields.memberLimit.errors}
          hint={`Between 2 and ${CREATE_LIMIT_MAX}. Leave empty for no limit.`}
        >
          <input
            {...getInputProps(fields.memberLimit, { type: "number" })}
            min={2}
            max={CREATE_LIMIT_MAX}
            step={1}
            className="input max-w-[12rem]"
            placeholder="Unlimited"
          />
        </Field>
        <TagsInput id={fields.tags.id} defaultTags={tagsFrom(fields.tags.initialValue)} errors={tagErrors} />
        <Field id={fields.rules.id} label="Rules (optional)" errors={fields.rules.errors}>
          <textarea
            {...getTextareaProps(fields.rules)}
            rows={4}
            maxLength={CLUB_RULES_MAX}
            className="input"
            placeholder={"Be respectful.\nNo sharing exact stand locations."}
          />
        </Field>
        <div className="flex justify-end gap-3">
          <Link to="/clubs" className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Creating..." : "Create Club"}
          </button>
        </div>
      </Form>
    </div>
  );
}
