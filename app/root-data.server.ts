import { data, type LoaderFunctionArgs } from "react-router";
import { moderationBadge } from "~/models/moderation/report-notice.server";
import { unreadCount } from "~/models/notifications/notification.server";
import { dataSaverFor } from "~/web/data-saver.server";
import { newIdempotencyKey } from "~/web/idempotency.server";
import { readSession } from "~/web/session.server";
import { getToast } from "~/web/toast.server";
import type { Toast } from "~/utils/toast";

/**
 * What every page's layout needs (root.tsx): the member, a flashed toast, the forms' idempotency key
 * and the data-saver setting. Apart from root.tsx so the browser build sees one server module here,
 * not five, each of which would be a tiny file of its own on every page (docs/decisions/0045).
 */
/** The notice on the page a suspended member had open: once (the same answer drops the cookie). */
const signedOutToast = (notice: string): Toast => ({ title: "You have been signed out", description: notice, type: "error", sticky: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const [{ signedIn, dropCookie, endedBecause }, { toast, headers }] = await Promise.all([readSession(request), getToast(request)]);
  const user = signedIn?.user;
  // Staff's open cases beside the menu's Moderation (ux-3 U23): one count from one index, capped.
  const badge = user ? await moderationBadge(user) : null;
  // A cookie whose session has ended or expired: the browser is told to drop it.
  const out = new Headers(headers ?? undefined);
  if (dropCookie) out.append("Set-Cookie", dropCookie);
  return data(
    {
      // The site role shows staff their moderation links (CONTRACT.md §8).
      // `moderates`: the menu's Moderation link, for site staff and the staff of a club (§8 "Pages").
      user: user
        ? {
            id: user.id,
            username: user.username,
            displayName: user.displayName,
            avatar: user.avatar,
            role: user.role,
            moderates: badge !== null,
            openCases: badge?.openCases ?? 0,
            // The top bar's count and the title's "(3) " (CONTRACT.md §7): capped, one index walk.
            unread: await unreadCount(user.id),
          }
        : null,
      // Why this device was just signed out, told on the page it had open until dismissed (ux-3 U7).
      toast: toast ?? (endedBecause ? signedOutToast(endedBecause) : null),
      // The idempotency key of the page's forms that create something (utils/idempotency.ts).
      formKey: user ? newIdempotencyKey() : null,
      // Images as tap-to-load placeholders (Save-Data: on, or the member's setting): components/ui/data-saver.ts.
      dataSaver: dataSaverFor(request, signedIn),
      // Graphic posts' media behind "Show photo": visitors always, members unless they turned it off (components/post/media.tsx, ADR 0091).
      blurGraphic: signedIn?.blurGraphic ?? true,
    },
    { headers: out },
  );
}
