import { parseWithZod } from "@conform-to/zod/v4";
import { deleteAccount } from "~/models/members/account.server";
import { accountDeletionSchema } from "~/schemas/profile";
import { formReply } from "./page-errors.server";
import { signOutHeaders } from "./sign-out.server";
import { redirectWithToast } from "./toast.server";
import type { SessionUser } from "./session.server";

/**
 * Settings › Privacy "Delete my account" (intent `delete-account`): with the right password the
 * account goes (models/members/account.server.ts) and this browser is signed out and sent home with a toast;
 * a wrong or missing one is the password field's error and changes nothing.
 */
export async function deleteAccountAction(actor: SessionUser, request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: accountDeletionSchema });
  const reply = { hideFields: ["password"], data: { intent: "delete-account" } } as const;
  if (submission.status !== "success") return formReply(submission, reply);
  try {
    await deleteAccount(actor, submission.value);
  } catch (error) {
    return formReply(submission, { ...reply, error });
  }
  return redirectWithToast(
    "/",
    { title: "Account deleted", description: "Your account and everything you posted have been deleted." },
    { headers: await signOutHeaders(request) },
  );
}
