import { CARD_HEADER, HUNT_DAY_PATH, isCardAddress } from "../offline/hunt-day-card";
import { SAVED_AT_HEADER, SAVED_FOR_HEADER, VIEWER_HEADER, VISITOR } from "../offline/saved-pages";

/**
 * A member's hunt-day card offline for 14 days (CONTRACT.md §14; docs/decisions/0090, "a member's
 * copy offline past 72 hours", and 0095). A member's saved pages are shown offline only within 72
 * hours of the last answer that confirmed their session (ADR 0053, for shared devices), which cut a
 * member's /hunt-day to 3 days. So when a member's /hunt-day comes from the network, the worker also
 * keeps the same card drawn for a visitor (its address is the answer's `X-Pulse-Card`): no name, no
 * menu, only the county and the sun and moon that anyone may read at that address. It is fetched
 * straight from here with `credentials: "omit"`, past the saved-pages plugin (which would take a
 * visitor's answer as a sign-out and forget the member's pages), and kept in a cache of its own that
 * the 72-hour bound does not clear. Offline, when nothing else may be shown for /hunt-day, it is.
 *
 * It is forgotten like the member's pages on every sign that the member left this device: signing
 * out, an answer for another member, or the server saying this device's session ended (an `/api`
 * 401, a page drawn for a visitor). Only the 72-hour bound itself leaves it. A copy older than 14 days
 * is never shown.
 */

export const CARD_CACHE = "hunt-day-card";
/** A kept card is shown offline up to this long after it was fetched (the card's own 15 days). */
export const CARD_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** A member who opens /hunt-day often fetches the visitor's card again at most this often (it is ~10 KB gzip). */
const CARD_REFRESH_MS = 12 * 60 * 60 * 1000;

/** Bumped when the card is forgotten: a fetch that started before does not put it back. */
let generation = 0;

export const isHuntDayPage = (url: URL) => url.pathname === HUNT_DAY_PATH;

/**
 * `page` (the member's address, e.g. `/hunt-day`) just came from the network as `answer`: if it is
 * a member's card, keep the visitor-drawn copy of it (unless a recent one for the same card is kept).
 */
export async function keepCard(page: string, answer: Response): Promise<void> {
  const address = answer.headers.get(CARD_HEADER);
  const owner = answer.headers.get(VIEWER_HEADER);
  if (answer.status !== 200 || answer.headers.has(SAVED_AT_HEADER) || !isCardAddress(address) || !owner || owner === VISITOR) return;
  const started = generation;
  const cache = await caches.open(CARD_CACHE);
  const kept = await cache.match(page);
  if (
    kept?.headers.get(CARD_HEADER) === address &&
    kept.headers.get(SAVED_FOR_HEADER) === owner &&
    Date.now() - Number(kept.headers.get(SAVED_AT_HEADER)) < CARD_REFRESH_MS
  )
    return;
  const card = await fetch(new URL(address, self.location.origin), { credentials: "omit", redirect: "error" }).catch(() => null);
  if (!card || card.status !== 200 || card.headers.get(VIEWER_HEADER) !== VISITOR) return;
  if (!card.headers.get("Content-Type")?.startsWith("text/html")) return;
  const headers = new Headers(card.headers);
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  headers.set(SAVED_AT_HEADER, String(Date.now()));
  // Whose card it is: another member's answer forgets it, their own keeps it.
  headers.set(SAVED_FOR_HEADER, owner);
  headers.set(CARD_HEADER, address);
  const body = await card.blob();
  if (started !== generation) return;
  await cache.put(page, new Response(body, { status: 200, headers }));
}

/** The kept card for `page`, if one is there and at most 14 days old. */
export async function keptCard(page: string): Promise<Response | undefined> {
  if (!(await caches.has(CARD_CACHE))) return undefined;
  const cache = await caches.open(CARD_CACHE);
  const kept = await cache.match(page);
  if (!kept) return undefined;
  const age = Date.now() - Number(kept.headers.get(SAVED_AT_HEADER));
  if (age >= 0 && age <= CARD_MAX_AGE_MS) return kept;
  await cache.delete(page);
  return undefined;
}

/**
 * The member left this device, or another viewer came (`next`): forget the kept card, unless `next`
 * is the member whose card it is (they came back online after the 72-hour bound reset the viewer).
 */
export async function forgetCard(next: string = VISITOR): Promise<void> {
  if (!(await caches.has(CARD_CACHE))) return;
  if (next !== VISITOR) {
    const owners = await Promise.all((await (await caches.open(CARD_CACHE)).matchAll()).map((r) => r.headers.get(SAVED_FOR_HEADER)));
    if (owners.every((owner) => owner === next)) return;
  }
  generation += 1;
  await caches.delete(CARD_CACHE);
}
