import * as z from "zod/mini";
import { preprocess, text } from "./text";
import { dayAtClock } from "~/utils/time-zone";

/**
 * Inputs of the staff's member decisions (CONTRACT.md §8 "Suspension", "Club staff") and the words
 * a suspended member reads. Browser-safe: the same schemas serve the JSON routes and the plain forms.
 */

export const SUSPENSION_REASON_MAX = 500;
export const SUSPENSION_DAYS_MAX = 3650;

const blankToUndefined = (v: unknown) => {
  if (v === null || v === undefined) return undefined;
  if (typeof v === "string") return v.trim() === "" ? undefined : Number(v.trim());
  return v;
};

/** A reason the member reads, 1..500 characters once trimmed. */
const memberReason = (required: string) =>
  text({ error: required }).check(
    z.trim(),
    z.minLength(1, required),
    z.maxLength(SUSPENSION_REASON_MAX, `The reason can be at most ${SUSPENSION_REASON_MAX} characters`),
  );

/** A whole number of days, 1..max. */
const wholeDays = (max: number) =>
  z
    .number({ error: "Days must be a whole number" })
    .check(z.int("Days must be a whole number"), z.gte(1, "Days must be at least 1"), z.lte(max, `Days can be at most ${max}`));

/** POST /api/moderation/users/{username}/suspend and the staff page's form. No days: until lifted. */
export const suspendSchema = z.object({
  reason: memberReason("Give a reason the member will read"),
  days: preprocess(blankToUndefined, z.optional(wholeDays(SUSPENSION_DAYS_MAX))),
});
export type SuspendInput = z.infer<typeof suspendSchema>;

/** How far back a purge reaches at most (CONTRACT.md §12 "Spam waves"). */
export const PURGE_DAYS_MAX = 365;

/**
 * POST /api/moderation/users/{username}/purge and the staff page's form: every post and comment of
 * the member from the last `days` days is removed with `reason`.
 */
export const purgeSchema = z.object({
  reason: memberReason("Give a reason for the removal (the member will see it)"),
  days: preprocess(blankToUndefined, wholeDays(PURGE_DAYS_MAX)),
});
export type PurgeInput = z.infer<typeof purgeSchema>;

/** PUT /api/clubs/{id}/members/{username} and the Members tab's Make admin / Remove admin role. */
export const clubRoleSchema = z.object({
  role: z.enum(["admin", "member"], { error: 'Role must be "admin" or "member"' }),
});
export type ClubStaffRole = z.infer<typeof clubRoleSchema>["role"];

const longDate = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** "3 December 2026" (UTC), as a suspension's end is told. */
export const suspensionEndDate = (until: Date | string): string => longDate.format(new Date(until));

/** Is a suspension in force at `now`? (Suspended, and either until lifted or not yet over.) */
export function isSuspendedAt(member: { suspendedAt: Date | null; suspendedUntil: Date | null }, now: number = Date.now()): boolean {
  return member.suspendedAt !== null && (member.suspendedUntil === null || member.suspendedUntil.getTime() > now);
}

/**
 * What sign-in answers a suspended member (403): the end's day and time of day in the member's zone
 * (`zone`, UTC when unknown), and where to write with a question or an appeal when the operator
 * named an address (ux-3 U7).
 */
export function suspensionNotice(
  member: { suspendedUntil: Date | null; suspensionReason: string | null },
  { zone = "UTC", contact }: { zone?: string; contact?: string } = {},
): string {
  const until = member.suspendedUntil ? `until ${dayAtClock(member.suspendedUntil, zone)}` : "until a moderator lifts it";
  const reason = (member.suspensionReason ?? "no reason was given").replace(/[.\s]+$/, "");
  return `Your account is suspended ${until}: ${reason}.${contact ? ` Questions or an appeal: write to ${contact}.` : ""}`;
}
