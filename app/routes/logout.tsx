import { redirect } from "@remix-run/node";
import { destroyUserSession } from "~/web/session.server";
import { pageAction } from "~/web/page-action";
import { toastCookie } from "~/web/toast.server";

/** Log out is a POST (the avatar menu's form); a GET changes nothing. */
export const loader = () => redirect("/");

export const action = pageAction(async ({ request }) => {
  const headers = new Headers();
  headers.append("Set-Cookie", await destroyUserSession(request));
  headers.append("Set-Cookie", await toastCookie({ title: "Logged out", description: "You've been successfully logged out." }));
  return redirect("/", { headers });
});
