/**
 * What the hunt-day page's server and the service worker agree on about the member's offline card
 * (docs/decisions/0090-counties-and-hunt-day.md, "a member's copy offline past 72 hours"). No worker
 * or DOM globals: both sides import it.
 */

/** On a signed-in member's /hunt-day answer: the visitor address that draws the same card (`/hunt-day?county=18089`). */
export const CARD_HEADER = "X-Pulse-Card";

/** The page the card belongs to. */
export const HUNT_DAY_PATH = "/hunt-day";

/** The visitor address of a county's card. */
export const cardAddress = (fips: string) => `${HUNT_DAY_PATH}?county=${fips}`;

/** An address the worker may fetch as the card: this site's /hunt-day for one county, nothing else. */
export const isCardAddress = (value: string | null | undefined): value is string => /^\/hunt-day\?county=\d{5}$/.test(value ?? "");
