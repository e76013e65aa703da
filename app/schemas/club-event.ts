import * as z from "zod/mini";
import { instantOfLocal, knownTimeZone, LOCAL_DATE_TIME } from "~/utils/time-zone";
import { label, preprocess, text } from "./text";

/**
 * Club hunt inputs (issue 44, CONTRACT.md §14 "Club hunts"). Browser-safe: the same schema reads a
 * JSON body and the page's plain form. JSON sends times as ISO 8601 with an offset; the form sends
 * the wall clock of its `datetime-local` inputs and the zone they are in (`timeZone`, the club's,
 * chosen on the form), which become instants here, before the time rules run (ADR 0089).
 */

export const EVENT_TITLE_MAX = 120;
export const EVENT_DESCRIPTION_MAX = 2000;
export const EVENT_LOCATION_MAX = 100;
export const EVENT_NOT_FOUND = "Hunt not found";
export const RSVP_CHOICES = ["going", "maybe", "no"] as const;
export type RsvpChoice = (typeof RSVP_CHOICES)[number];

/** ISO 8601 with a date, a time and an offset (Z or ±hh:mm). */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const BAD_TIME = "Enter a date and time with an offset, like 2026-12-05T05:30:00-06:00";

const lastOf = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);
const blankToNull = (v: unknown) => {
  const value = lastOf(v);
  if (value === null) return null;
  if (typeof value === "string" && value.trim() === "") return null;
  return value;
};

/** An instant: an ISO string with an offset, or (from the form) one already made from the wall clock. */
const instant = (required: string) =>
  z.pipe(
    z.string({ error: required }).check(
      z.trim(),
      z.refine((v) => ISO_WITH_OFFSET.test(v) && !Number.isNaN(Date.parse(v)), BAD_TIME),
    ),
    z.transform((v) => new Date(v)),
  );

/** A form's wall-clock times read in its `timeZone`: "2026-12-05T05:30" → "2026-12-05T11:30:00.000Z". */
function fromWallClock(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input;
  const values = { ...(input as Record<string, unknown>) };
  const zone = knownTimeZone(typeof lastOf(values.timeZone) === "string" ? (lastOf(values.timeZone) as string) : undefined);
  for (const field of ["startsAt", "endsAt"]) {
    const v = lastOf(values[field]);
    if (typeof v === "string" && LOCAL_DATE_TIME.test(v.trim())) {
      // A wall clock without a known zone stays as sent, and the time rule answers for it.
      const at = zone ? instantOfLocal(v.trim(), zone) : undefined;
      if (at) values[field] = at.toISOString();
    }
  }
  return values;
}

const title = label({ error: "Title is required" }).check(
  z.trim(),
  z.minLength(1, "Title is required"),
  z.maxLength(EVENT_TITLE_MAX, `Title can be at most ${EVENT_TITLE_MAX} characters`),
);
const description = preprocess(
  (v) => blankToNull(v) ?? "",
  text().check(z.trim(), z.maxLength(EVENT_DESCRIPTION_MAX, `Description can be at most ${EVENT_DESCRIPTION_MAX} characters`)),
);
const location = preprocess(
  blankToNull,
  z.nullable(label().check(z.trim(), z.maxLength(EVENT_LOCATION_MAX, `Place can be at most ${EVENT_LOCATION_MAX} characters`))),
);
const timeZone = preprocess(
  (v) => blankToNull(v) ?? undefined,
  z.optional(z.string().check(z.refine((v) => knownTimeZone(v) !== undefined, "Choose a time zone from the list"))),
);

const fields = {
  title,
  description: z.optional(description),
  location: z.optional(location),
  startsAt: preprocess(lastOf, instant("Start time is required")),
  endsAt: preprocess(blankToNull, z.optional(z.nullable(instant(BAD_TIME)))),
  timeZone,
};

/** POST /api/clubs/{id}/events and the create form. */
export const createEventSchema = preprocess(fromWallClock, z.object(fields));
export type CreateEventInput = z.infer<typeof createEventSchema>;

/** PUT /api/clubs/{id}/events/{eventId} and the edit form: a field left out keeps its value; `endsAt: null` clears it. */
export const editEventSchema = preprocess(fromWallClock, z.partial(z.object(fields)));
export type EditEventInput = z.infer<typeof editEventSchema>;

/** POST …/rsvp and the event page's three buttons. */
export const rsvpSchema = z.object({
  status: preprocess(lastOf, z.enum(RSVP_CHOICES, { error: "Answer going, maybe or no" })),
});

/** `?from=&to=` of GET /api/clubs/{id}/events: instants, each optional. */
export const eventRangeSchema = z.object({
  from: z.optional(instant(BAD_TIME)),
  to: z.optional(instant(BAD_TIME)),
});
