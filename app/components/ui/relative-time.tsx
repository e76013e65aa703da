import { formatDistanceToNow } from "date-fns";

const exact = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

/** "3 hours ago" in English (US), with the exact date on hover. */
export function RelativeTime({ iso, className = "" }: { iso: string; className?: string }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={exact.format(date)} className={className} suppressHydrationWarning>
      {formatDistanceToNow(date, { addSuffix: true })}
    </time>
  );
}
