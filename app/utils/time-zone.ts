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
