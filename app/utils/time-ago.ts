/**
 * "about 3 hours", "in 2 days", "5 minutes ago": date-fns' `formatDistance` (en-US, no seconds),
 * rewritten in 40 lines so the pages that show times do not ship date-fns' 3.5 KB gz (ADR 0044).
 * `time-ago.test.ts` checks it word for word against date-fns, which stays a dev dependency of
 * that test only.
 */

const MINUTES_IN_DAY = 1440;
const MINUTES_IN_MONTH = 43200;

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many.replace("#", String(count)));

/** Whole calendar months from `earlier` to `later` (later ≥ earlier), the last one only when full. */
function fullMonths(later: Date, earlier: Date): number {
  const calendar = (later.getFullYear() - earlier.getFullYear()) * 12 + later.getMonth() - earlier.getMonth();
  if (calendar < 1) return 0;
  const back = new Date(later);
  if (back.getMonth() === 1 && back.getDate() > 27) back.setDate(30);
  back.setMonth(back.getMonth() - calendar);
  return calendar - (back.getTime() < earlier.getTime() ? 1 : 0);
}

/** How far apart two moments are, in words: "about 3 hours". */
export function distance(a: Date, b: Date): string {
  const [earlier, later] = a.getTime() <= b.getTime() ? [a, b] : [b, a];
  const seconds = Math.trunc((later.getTime() - earlier.getTime()) / 1000);
  // A daylight-saving change in between does not count (date-fns does the same).
  const offset = (later.getTimezoneOffset() - earlier.getTimezoneOffset()) * 60;
  const minutes = Math.round((seconds - offset) / 60);
  if (minutes < 1) return "less than a minute";
  if (minutes < 45) return plural(minutes, "1 minute", "# minutes");
  if (minutes < 90) return "about 1 hour";
  if (minutes < MINUTES_IN_DAY) return `about ${Math.round(minutes / 60)} hours`;
  if (minutes < 2520) return "1 day";
  if (minutes < MINUTES_IN_MONTH) return `${Math.round(minutes / MINUTES_IN_DAY)} days`;
  if (minutes < MINUTES_IN_MONTH * 2) return plural(Math.round(minutes / MINUTES_IN_MONTH), "about 1 month", "about # months");
  const months = fullMonths(later, earlier);
  if (months < 12) return plural(Math.round(minutes / MINUTES_IN_MONTH), "1 month", "# months");
  const years = Math.trunc(months / 12);
  const rest = months % 12;
  if (rest < 3) return plural(years, "about 1 year", "about # years");
  if (rest < 9) return plural(years, "over 1 year", "over # years");
  return plural(years + 1, "almost 1 year", "almost # years");
}

/** `date` from `base` (now by default): "3 hours ago", or "in 3 hours" for a later date. */
export function timeAgo(date: Date, base: Date = new Date()): string {
  const words = distance(date, base);
  return date.getTime() > base.getTime() ? `in ${words}` : `${words} ago`;
}
