import { RelativeTime } from "~/components/ui/relative-time";
import { REPORT_TARGET_NAMES } from "~/schemas/report-options";
import type { ModerationLogEntry } from "~/schemas/shapes";

/** Each decision in the past tense (ux-3 U13: the log read "oldbuck_ohio dismiss club"): the verb, and what follows the target. */
const DECISIONS: Record<ModerationLogEntry["action"], [verb: string, after?: string]> = {
  remove: ["removed"],
  restore: ["restored"],
  hide: ["hid"],
  dismiss: ["dismissed the reports on"],
  suspend: ["suspended"],
  unsuspend: ["lifted the suspension of"],
  set_role: ["changed the role of"],
  remove_member: ["removed", "from the club"],
  purge: ["removed the recent posts and comments of"],
  dismiss_reports: ["dismissed the open reports by"],
  mark_sensitive: ["marked", "as a graphic photo"],
  unmark_sensitive: ["cleared the graphic photo mark of"],
};

/**
 * One line of a moderation log: "oldbuck_ohio removed comment “Nice buck”: off topic · 2 hours ago".
 * `named`: say what the target is (the queue's log, where targets of every kind mix); a member's own
 * page leaves it out ("suspended hank_w").
 */
export function ModerationLogLine({ entry, named = true }: { entry: ModerationLogEntry; named?: boolean }) {
  const [verb, after] = DECISIONS[entry.action];
  const target = named ? `${REPORT_TARGET_NAMES[entry.targetType]} “${entry.targetLabel}”` : entry.targetLabel;
  return (
    <>
      <span className="font-semibold">{entry.actor}</span> {verb} {target}
      {after ? ` ${after}` : ""}
      {entry.reason ? <span className="text-stone-600">: {entry.reason}</span> : null} · <RelativeTime iso={entry.createdAt} />
    </>
  );
}
