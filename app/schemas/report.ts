import * as z from "zod/mini";
import type { ModerationAction } from "#db/schema";
import type { QueueReport } from "./shapes";
import { preprocess, text } from "./text";
import { CHOOSE_REASON, DETAILS_TOO_LONG, REPORT_DETAILS_MAX, REPORT_REASONS, REPORT_TARGETS, type ReportTarget } from "./report-options";

/**
 * Reports and the moderation queue (CONTRACT.md §8 "Reports", "Queue"). Browser-safe: the report
 * form (dialog and page), the page action and POST /api/reports read the same schema.
 */

export * from "./report-options";

const one = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const blankToUndefined = (v: unknown) => {
  const value = one(v);
  return value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;
};
/** A form sends "12"; JSON sends 12. */
const toId = (v: unknown) => {
  const value = one(v);
  return typeof value === "string" && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
};

export const reportTargetTypeSchema = preprocess(one, z.enum(REPORT_TARGETS, { error: "Choose what to report" }));
export const reportTargetIdSchema = preprocess(
  toId,
  z.number({ error: "Say what to report" }).check(z.int("Say what to report"), z.positive("Say what to report")),
);

export const reportSchema = z.object({
  targetType: reportTargetTypeSchema,
  targetId: reportTargetIdSchema,
  reason: preprocess(one, z.enum(REPORT_REASONS, { error: CHOOSE_REASON })),
  details: preprocess(
    blankToUndefined,
    z.optional(text({ error: DETAILS_TOO_LONG }).check(z.trim(), z.maxLength(REPORT_DETAILS_MAX, DETAILS_TOO_LONG))),
  ),
});
/** What a caller passes: a form's strings or JSON's numbers, checked by reportSchema. */
export type ReportInput = { targetType: string; targetId: number | string; reason: string; details?: string | null };

export const QUEUE_STATUSES = ["open", "closed"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export const decisionSchema = z.object({
  action: preprocess(one, z.enum(["dismiss", "remove"], { error: "Choose dismiss or remove" })),
  reason: preprocess(blankToUndefined, z.optional(z.string())),
});
export type DecisionInput = { action: string; reason?: string | null };

/** Where the reported thing stands now. */
export type QueueTargetState = "visible" | "hidden" | "removed" | "deleted";

/** One moderation case in the queue: never who reported it (CONTRACT.md §8). */
export type QueueEntry = {
  id: number;
  targetType: ReportTarget;
  targetId: number;
  clubId: number | null;
  /** The text when it was first reported. */
  snapshot: string;
  /** The text as it is now, or null when it was deleted. */
  current: string | null;
  state: QueueTargetState;
  /** The reason a moderator gave when they removed it. */
  removalReason: string | null;
  /** Where it can be seen (a post, a comment on its post, a profile, a club), or null when gone. */
  href: string | null;
  /** The member it is about (the author, or the member reported), whom site staff may suspend or purge; null for a club or a deleted account. */
  subject: string | null;
  /** A post's or comment's author (ux-3 U23); null for a member, a club, or a deleted account. */
  author: { username: string; displayName: string } | null;
  reports: QueueReport[];
  status: QueueStatus;
  createdAt: string;
  closedAt: string | null;
  /** How a closed case was decided and by whom (the log's action and actor); null while open, and for cases closed before it was kept. */
  decision: { action: ModerationAction; by: string } | null;
};

export type QueuePage = { entries: QueueEntry[]; nextCursor: string | null };
