/**
 * How the hunt-day page writes its times and days (routes/hunt-day), in the county's own zone.
 * Built from Intl's parts with plain spaces, so the server's and the browser's text are the same
 * whatever their ICU puts before "AM" (a hydration would otherwise differ). No suncalc here: the
 * page's first load carries only this.
 */

const clocks = new Map<string, Intl.DateTimeFormat>();
const days = new Map<string, Intl.DateTimeFormat>();
const zones = new Map<string, Intl.DateTimeFormat>();

function cached(map: Map<string, Intl.DateTimeFormat>, zone: string, make: () => Intl.DateTimeFormat) {
  let format = map.get(zone);
  if (!format) map.set(zone, (format = make()));
  return format;
}

const part = (parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";

/** "6:25 AM" in `timeZone`; "—" for no time (a day the sun does not rise or set). */
export function clockText(iso: string | null, timeZone: string): string {
  if (!iso) return "—";
  const parts = cached(
    clocks,
    timeZone,
    () => new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", hour12: true, timeZone }),
  ).formatToParts(new Date(iso));
  return `${part(parts, "hour")}:${part(parts, "minute")} ${part(parts, "dayPeriod").toUpperCase()}`;
}

/** "Mon, Nov 30" for a calendar day (YYYY-MM-DD). */
export function dayText(date: string): string {
  const parts = cached(
    days,
    "UTC",
    () => new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" }),
  ).formatToParts(new Date(`${date}T12:00:00Z`));
  return `${part(parts, "weekday")}, ${part(parts, "month")} ${part(parts, "day")}`;
}

/** The zone's short name on that day ("CST", "MDT"; elsewhere an offset, "GMT+10"). */
export function zoneText(iso: string, timeZone: string): string {
  return part(
    cached(zones, timeZone, () => new Intl.DateTimeFormat("en-US", { timeZoneName: "short", timeZone })).formatToParts(new Date(iso)),
    "timeZoneName",
  );
}

/** "56%". */
export const percentText = (fraction: number) => `${Math.round(fraction * 100)}%`;
