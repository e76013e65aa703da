import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "react-router";
import { unsubscribeTarget, unsubscribeWithToken } from "~/models/notifications/notification-mail.server";
import { NO_STORE } from "~/web/cache-control.server";
import { withLoaderErrors } from "~/web/page-errors.server";
import { readFormData } from "~/web/request-body.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /unsubscribe/{token}'s server side (route.tsx re-exports it, docs/decisions/0045): the link at the
 * foot of every notification mail and in its `List-Unsubscribe` header (CONTRACT.md §7 "Email").
 *
 * GET shows who the link is for and one button; it changes nothing. POST turns the member's
 * notification mail off: the button's form (then back to the page, which says so), or a mail
 * client's RFC 8058 one-click POST (`List-Unsubscribe=One-Click`, from the mail provider's servers,
 * without cookies), answered 200 at once. The signed token is the whole credential, so this POST
 * skips the same-origin check of `withPageErrors` (the HTTP edge lets it through too): a cross-site
 * request could only do what the token already allows. A forged or cut-short token is a 404 page.
 */

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withLoaderErrors(request, async () => data(await unsubscribeTarget(params.token ?? ""), NO_STORE));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return withLoaderErrors(request, async () => {
    const token = params.token ?? "";
    const form = await readFormData(request);
    const { username } = await unsubscribeWithToken(token);
    if (form.get("List-Unsubscribe") === "One-Click") return data({ unsubscribed: username }, NO_STORE);
    return redirectWithToast(`/unsubscribe/${token}`, {
      title: "Notification emails are off",
      description: "You can turn them back on in Settings › Notifications.",
    });
  });
}
