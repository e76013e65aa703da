import { getMoonIllumination, getTimes } from "suncalc";

/**
 * The hunt-day card's figures (CONTRACT.md §14; docs/decisions/0090-counties-and-hunt-day.md):
 * sunrise, sunset, legal light and the moon for a place on a local calendar day, with suncalc.
 * Browser-safe: the server draws the page with it and the page's script imports it lazily to draw
 * the days again from the device's own date, with no signal (routes/hunt-day).
 */

export type HuntDayPlace = { lat: number; lon: number; timeZone: string };

export type MoonPhaseName =
  "New Moon" | "Waxing Crescent" | "First Quarter" | "Waxing Gibbous" | "Full Moon" | "Waning Gibbous" | "Last Quarter" | "Waning Crescent";

export type HuntDay = {
  /** The local calendar day, YYYY-MM-DD. */
  date: string;
  /** UTC ISO 8601 instants; null where the sun does not rise or set that day (polar night or day). */
  sunrise: string | null;
  sunset: string | null;
  legalStart: string | null;
  legalEnd: string | null;
  /** "night" when the sun stays down all day, "day" when it stays up; absent otherwise. */
  polar?: "day" | "night";
  moon: { phase: number; illumination: number; name: MoonPhaseName };
};

/** Legal light: this long before sunrise and after sunset (the page tells members to check their state's rule). */
export const LEGAL_LIGHT_MINUTES = 30;

const MINUTE = 60_000;
const DAY = 86_400_000;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
function offsetFormat(timeZone: string) {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    offsetFormats.set(timeZone, format);
  }
  return format;
}

/** How far `timeZone`'s clocks are ahead of UTC at `instant`, in ms. */
export function zoneOffset(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    offsetFormat(timeZone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The local calendar day (YYYY-MM-DD) in `timeZone` at `instant`. */
export function localDate(instant: number, timeZone: string): string {
  return new Date(instant + zoneOffset(instant, timeZone)).toISOString().slice(0, 10);
}

/** `date` (YYYY-MM-DD) plus `days`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** Is this a real calendar day written YYYY-MM-DD, between 1900 and 2100 (where suncalc's ΔT fits hold)? */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const year = Number(text.slice(0, 4));
  const time = Date.parse(`${text}T00:00:00Z`);
  return year >= 1900 && year <= 2100 && !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
}

/** Noon of a local day in `timeZone`, as an instant. */
function localNoon(date: string, timeZone: string): number {
  const guess = Date.parse(`${date}T12:00:00Z`);
  return guess - zoneOffset(guess - zoneOffset(guess, timeZone), timeZone);
}

/**
 * Named phases: the four principal ones on the day nearest them (within half a day of the instant),
 * the four between them otherwise.
 */
export function moonPhaseName(phase: number): MoonPhaseName {
  const HALF_DAY = 0.5 / 29.530589;
  const near = (target: number) => Math.min(Math.abs(phase - target), 1 - Math.abs(phase - target)) <= HALF_DAY;
  if (near(0)) return "New Moon";
  if (near(0.25)) return "First Quarter";
  if (near(0.5)) return "Full Moon";
  if (near(0.75)) return "Last Quarter";
  if (phase < 0.25) return "Waxing Crescent";
  if (phase < 0.5) return "Waxing Gibbous";
  if (phase < 0.75) return "Waning Gibbous";
  return "Waning Crescent";
}

const iso = (instant: number | null) => (instant === null ? null : new Date(Math.round(instant / 1000) * 1000).toISOString());
const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** The card for `place` on the local day `date` (YYYY-MM-DD). */
export function huntDay(place: HuntDayPlace, date: string): HuntDay {
  const noon = localNoon(date, place.timeZone);
  // suncalc takes the solar day nearest the instant given: local noon is that day's.
  const times = getTimes(new Date(noon), place.lat, place.lon);
  const sunrise = times.sunrise?.getTime() ?? null;
  const sunset = times.sunset?.getTime() ?? null;
  const moon = getMoonIllumination(new Date(noon));
  const day: HuntDay = {
    date,
    sunrise: iso(sunrise),
    sunset: iso(sunset),
    legalStart: iso(sunrise === null ? null : sunrise - LEGAL_LIGHT_MINUTES * MINUTE),
    legalEnd: iso(sunset === null ? null : sunset + LEGAL_LIGHT_MINUTES * MINUTE),
    moon: { phase: round3(moon.phase), illumination: round3(moon.fraction), name: moonPhaseName(moon.phase) },
  };
  if (times.alwaysDown) day.polar = "night";
  else if (times.alwaysUp) day.polar = "day";
  return day;
}

/** How many days the page shows: today and the next 14. */
export const HUNT_DAYS = 15;

/** Today (in the place's zone, at `now`) and the days after it. */
export function huntDays(place: HuntDayPlace, now: number, count = HUNT_DAYS): HuntDay[] {
  const today = localDate(now, place.timeZone);
  return Array.from({ length: count }, (_, index) => huntDay(place, addDays(today, index)));
}
