import { useHydrated } from "~/utils/hydrated";
import { timeAgo } from "~/utils/time-ago";

const fields: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
};
/** The server knows no reader's zone: the page as sent names UTC ("Nov 21, 2026, 8:58 PM UTC"). */
const utc = new Intl.DateTimeFormat("en-US", { ...fields, timeZone: "UTC" });
/** The UTC titles already written: a page of cards formats the same instants on every request. */
const utcTitles = new Map<string, string>();
function utcTitle(iso: string, date: Date): string {
  let title = utcTitles.get(iso);
  if (title === undefined) {
    if (utcTitles.size >= 5000) utcTitles.clear();
    title = utc.format(date);
    utcTitles.set(iso, title);
  }
  return title;
}

/**
 * "3 hours ago" in English (US), with the exact date on hover: in the reader's own time zone once
 * the browser runs the page, in UTC (labelled) without JavaScript. Both name their zone.
 */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const hydrated = useHydrated();
  const date = new Date(iso);
  const title = hydrated ? new Intl.DateTimeFormat("en-US", fields).format(date) : utcTitle(iso, date);
  return (
    <time dateTime={iso} title={title} className={className} suppressHydrationWarning>
      {timeAgo(date)}
    </time>
  );
}
