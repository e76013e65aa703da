import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "react-router";
import { resetLinkOwner, resetPassword } from "~/models/members/password-reset.server";
import { passwordResetSchema } from "~/schemas/forms.server";
import { NO_STORE } from "~/web/cache-control.server";
import { formReply, withPageErrors } from "~/web/page-errors.server";
import { readFormData } from "~/web/request-body.server";
import { redirectSignedIn } from "~/web/session.server";
import { isAppError } from "~/utils/errors";

/** /reset-password/{token}'s server side: the link's owner, and the new password (route.tsx re-exports it, docs/decisions/0045). */

export async function loader({ params }: LoaderFunctionArgs) {
  const owner = await resetLinkOwner(params.token ?? "");
  return data({ username: owner?.username ?? null }, { status: owner ? 200 : 404, ...NO_STORE });
}

const PASSWORD_FIELDS = ["newPassword", "confirmPassword"];

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request, params }) => {
    const submission = parseWithZod(await readFormData(request), { schema: passwordResetSchema });
    if (submission.status !== "success") return formReply(submission, { hideFields: PASSWORD_FIELDS });
    let user;
    try {
      user = await resetPassword(params.token ?? "", submission.value.newPassword);
    } catch (error) {
      if (isAppError(error) && error.status === 404) return data({ invalid: true } as const, { status: 404 });
      throw error;
    }
    return redirectSignedIn(user, request, "/", {
      title: "Password updated",
      description: "You're signed in with your new password. Every other device has been signed out.",
    });
  });
}
