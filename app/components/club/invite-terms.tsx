import { timeAgo } from "~/utils/time-ago";

const exact = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const HOUR = 3_600_000;

/**
 * "in 1 day", "in 5 hours", "in 12 minutes": when an invite expires, the one text every view shows
 * (issue 14 #28). Expiries are set in whole hours, so the time left is rounded up to the hour (the
 * minute under an hour): the link just made and the list loaded a minute later both say "in 1 day"
 * for a 24-hour invite, not "in 1 day" and "in about 24 hours".
 */
export function expiresText(expiresAt: string, now = Date.now()): string {
  const left = Math.max(0, new Date(expiresAt).getTime() - now);
  const step = left >= HOUR ? HOUR : 60_000;
  return timeAgo(new Date(now + Math.ceil(left / step) * step), new Date(now));
}

/**
 * "2 uses left · Expires in 3 days" (the club's invite list and the link just made) or, on the
 * invite page, "1 use remaining · Never expires".
 */
export function InviteTerms({
  invite,
  remaining = "left",
}: {
  invite: { usesRemaining: number | null; expiresAt: string | null };
  remaining?: "left" | "remaining";
}) {
  const uses = invite.usesRemaining;
  return (
    <>
      {uses === null ? "Unlimited uses" : `${uses} ${uses === 1 ? "use" : "uses"} ${remaining}`} ·{" "}
      {invite.expiresAt ? (
        <>
          Expires{" "}
          <time dateTime={invite.expiresAt} title={exact.format(new Date(invite.expiresAt))} suppressHydrationWarning>
            {expiresText(invite.expiresAt)}
          </time>
        </>
      ) : (
        "Never expires"
      )}
    </>
  );
}
