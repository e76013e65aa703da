import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "react-router";
import { listNotifications, markRead } from "~/models/notifications/notification.server";
import { markReadSchema } from "~/schemas/notifications";
import { badRequest, invalid } from "~/utils/errors";
import { zodFieldErrors } from "~/utils/validation";
import { withPageErrors } from "~/web/page-errors.server";
import { readFormData } from "~/web/request-body.server";
import { getSessionUser, requireActor } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

/** /notifications' server side (CONTRACT.md §7 "Pages"; route.tsx re-exports it, docs/decisions/0045). */

/** Signed out: the page's sign-in notice (401), as Settings does. */
export async function loader({ request }: LoaderFunctionArgs) {
  const member = await getSessionUser(request);
  if (!member) return data({ signedIn: false as const, page: null, cursor: null }, { status: 401 });
  const cursor = new URL(request.url).searchParams.get("cursor");
  return data({ signedIn: true as const, page: await listNotifications(member, { cursor }), cursor });
}

/**
 * "Mark read" (`intent=read`, `id` one or more) and "Mark all read" (`intent=read-all`): plain
 * forms that land back on the same page (POST/redirect/GET); a fetcher with JavaScript.
 */
export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    const member = await requireActor(request, "Please sign in to see your notifications");
    const form = await readFormData(request);
    const intent = form.get("intent");
    if (intent !== "read" && intent !== "read-all") throw badRequest("Unknown action");
    const parsed = markReadSchema.safeParse(intent === "read" ? { ids: form.getAll("id").map((id) => Number(id)) } : {});
    if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
    if (intent === "read" && !parsed.data.ids?.length) throw badRequest("Choose notifications to mark read");
    await markRead(member, parsed.data.ids);
    const back = new URL(request.url).searchParams.get("cursor");
    const to = `/notifications${back ? `?cursor=${encodeURIComponent(back)}` : ""}`;
    // A row's Mark read sent by the page's script (`quiet`): the row shows it, no toast.
    if (form.get("quiet") === "1") return redirect(to);
    return redirectWithToast(to, { title: intent === "read" ? "Marked read" : "All marked read", type: "success" });
  });
}
