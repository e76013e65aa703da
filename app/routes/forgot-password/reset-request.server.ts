import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "react-router";
import { requestPasswordReset, resetByMail } from "~/models/members/password-reset.server";
import { forgotPasswordSchema } from "~/schemas/forms.server";
import { formReply, withPageErrors } from "~/web/page-errors.server";
import { clientAddress } from "~/web/params.server";
import { readFormData } from "~/web/request-body.server";

/** /forgot-password's server side: asking for a reset link (route.tsx re-exports it, docs/decisions/0045). */

export async function loader({ request }: LoaderFunctionArgs) {
  return data({ byMail: resetByMail(), sent: new URL(request.url).searchParams.get("sent") === "1" });
}

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    const submission = parseWithZod(await readFormData(request), { schema: forgotPasswordSchema });
    if (submission.status !== "success") return formReply(submission);
    try {
      // The same work for any identifier, and only the mail after the answer, which never says whether
      // there was an account (security-3 N14, password-reset.server.ts).
      await requestPasswordReset(submission.value.identifier, clientAddress(request));
    } catch (error) {
      return formReply(submission, { error });
    }
    return redirect("/forgot-password?sent=1");
  });
}
