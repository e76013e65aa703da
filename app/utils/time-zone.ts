/**
 * Times told in words in the reader's own zone (ux-3 U7, U15): "at 08:05 CST on 28 Nov". The
 * server knows the zone from the `tz` cookie the browser sets when it runs the page
 * (remember-time-zone.ts); without it (JavaScript off, a mail) times are told in UTC, labelled.
 */
export const TIME_ZONE_COOKIE = "tz";

/** The IANA name the runtime knows `name` by, or undefined for anything else. */
export function knownTimeZone(name: string | null | undefined): string | undefined {
  if (!name || name.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

type Formats = { clock: Intl.DateTimeFormat; shortDay: Intl.DateTimeFormat; longDay: Intl.DateTimeFormat; zone: Intl.DateTimeFormat };
const formats = new Map<string, Formats>();
function formatsFor(zone: string): Formats {
  let f = formats.get(zone);
  if (!f) {
    f = {
      clock: new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone }),
      shortDay: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: zone }),
      longDay: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: zone }),
      // en-US names American zones ("CST"); elsewhere it gives an offset ("GMT+1").
      zone: new Intl.DateTimeFormat("en-US", { timeZoneName: "short", timeZone: zone }),
    };
    formats.set(zone, f);
  }
  return f;
}

function clockWithZone(at: Date, zone: string): string {
  const f = formatsFor(zone);
  const name = f.zone.formatToParts(at).find((part) => part.type === "timeZoneName")?.value ?? zone;
  return `${f.clock.format(at)} ${name}`;
}

/** "08:05 CST on 28 Nov". */
export function clockOnDay(at: Date | number, zone = "UTC"): string {
  const moment = new Date(at);
  return `${clockWithZone(moment, zone)} on ${formatsFor(zone).shortDay.format(moment)}`;
}

/** "3 December 2026 at 14:05 CST". */
export function dayAtClock(at: Date | number, zone = "UTC"): string {
  const moment = new Date(at);
  return `${formatsFor(zone).longDay.format(moment)} at ${clockWithZone(moment, zone)}`;
}

/** "2026-12-05T05:30" (an `<input type="datetime-local">` value): a wall-clock time with no zone. */
export const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/** How far `zone`'s wall clock is ahead of UTC at `at`, in milliseconds. */
export function zoneOffsetMs(at: number, zone: string): number {
  let f = offsetFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    offsetFormats.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a wall-clock time names in `zone` (a form without JavaScript sends the club's local
 * time). A time skipped by a clock change reads as the hour after; a repeated one as the first.
 * Undefined when `local` is not a real date and time.
 */
export function instantOfLocal(local: string, zone: string): Date | undefined {
  const m = LOCAL_DATE_TIME.exec(local);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0));
  const wall = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d || h! > 23 || mi! > 59) return undefined;
  // The zone's offsets a day either side (clock changes are further apart than that): the instants
  // they give that the zone really shows as this wall clock, the earliest first; none in a gap, which
  // is read with the offset from before it (so it lands after the change).
  const before = zoneOffsetMs(wall - 86_400_000, zone);
  const after = zoneOffsetMs(wall + 86_400_000, zone);
  const fits = [wall - before, wall - after].filter((t) => zoneOffsetMs(t, zone) === wall - t).sort((x, y) => x - y);
  return new Date(fits[0] ?? wall - before);
}

/** The instant as `zone`'s wall clock, "2026-12-05T05:30" (what a datetime-local input shows). */
export function localOfInstant(at: Date | number, zone: string): string {
  const t = new Date(at).getTime();
  return new Date(t + zoneOffsetMs(t, zone)).toISOString().slice(0, 16);
}
