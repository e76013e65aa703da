import { redirect, type ActionFunctionArgs } from "react-router";
import { signOutHeaders } from "~/web/sign-out.server";
import { withPageErrors } from "~/web/page-errors.server";
import { toastCookie } from "~/web/toast.server";

/** /logout's server side (route.tsx re-exports it: one server module for the browser build, docs/decisions/0045). */

/** Log out is a POST (the avatar menu's form); a GET changes nothing. */
export const loader = () => redirect("/");

export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    // The browser's own cache forgets the member's pages too (Back after signing out, JS or not);
    // the service worker forgets its saved pages as the request leaves (app/sw/index.ts).
    const headers = await signOutHeaders(request);
    headers.append("Set-Cookie", await toastCookie({ title: "Logged out", description: "You've been successfully logged out." }));
    return redirect("/", { headers });
  });
}
