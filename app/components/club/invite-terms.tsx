import { RelativeTime } from "~/components/ui/relative-time";

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
          Expires <RelativeTime iso={invite.expiresAt} />
        </>
      ) : (
        "Never expires"
      )}
    </>
  );
}
