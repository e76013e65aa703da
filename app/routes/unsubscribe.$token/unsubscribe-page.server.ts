import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "react-router";
import { resubscribeWithToken, unsubscribeTarget, unsubscribeWithToken } from "~/models/notifications/notification-mail.server";
import { EMAIL_CHOICES } from "~/schemas/notification-settings-options";
import { isAppError } from "~/utils/errors";
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
 *
 * The page that says mail is off offers it back (ux-3 U25): `intent=resubscribe` with how often
 * (preselected as it was, carried in `?was=`), then the page asks again whether to stop, with a
 * toast that says mail is on. A missing or unknown choice is the form's refusal and changes nothing.
 */

/** How often mail may come back, with the settings page's words; `was` preselects one (else daily). */
function backOnChoices(was: string | null) {
  const choices = EMAIL_CHOICES.filter((choice) => choice.value !== "off");
  const checked = choices.some((choice) => choice.value === was) ? was : "daily";
  return choices.map((choice) => ({ value: choice.value, label: choice.label, hint: choice.hint, checked: choice.value === checked }));
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withLoaderErrors(request, async () => {
    const target = await unsubscribeTarget(params.token ?? "");
    return data({ ...target, backOn: backOnChoices(new URL(request.url).searchParams.get("was")) }, NO_STORE);
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return withLoaderErrors(request, async () => {
    const token = params.token ?? "";
    const form = await readFormData(request);
    if (form.get("intent") === "resubscribe") {
      try {
        const { email } = await resubscribeWithToken(token, form.get("email"));
        const choice = EMAIL_CHOICES.find((c) => c.value === email)!;
        return redirectWithToast(`/unsubscribe/${token}`, {
          title: "Notification emails are on",
          description: `${choice.label}: ${choice.hint}`,
        });
      } catch (error) {
        if (!isAppError(error) || error.status !== 400) throw error;
        return data({ refusal: error.message }, { ...NO_STORE, status: 400 });
      }
    }
    const { username, was } = await unsubscribeWithToken(token);
    if (form.get("List-Unsubscribe") === "One-Click") return data({ unsubscribed: username }, NO_STORE);
    const query = was === "off" ? "" : `?${new URLSearchParams({ was })}`;
    return redirectWithToast(`/unsubscribe/${token}${query}`, {
      title: "Notification emails are off",
      description: "You can turn them back on here or in Settings › Notifications.",
    });
  });
}
