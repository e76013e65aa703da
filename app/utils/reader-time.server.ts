import { requestNotes } from "./logger.server";
import { knownTimeZone, TIME_ZONE_COOKIE } from "./time-zone";

const COOKIE = new RegExp(`(?:^|;)\\s*${TIME_ZONE_COOKIE}=([^;]*)`);

/** The zone a request's `tz` cookie names, if the runtime knows it (anything else is ignored). */
export function timeZoneOfCookie(header: string | undefined): string | undefined {
  const raw = header?.match(COOKIE)?.[1];
  if (!raw) return undefined;
  try {
    return knownTimeZone(decodeURIComponent(raw));
  } catch {
    return undefined;
  }
}

/** The zone of the request being served (its cookie, noted by request-log.server.ts), else UTC. */
export const readerTimeZone = (): string => requestNotes.getStore()?.timeZone ?? "UTC";
