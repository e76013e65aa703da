import type { ReportReason, ReportTarget } from "#db/schema";

/**
 * The report form's choices and words (CONTRACT.md §8 "Reports"), apart from the schema: the Report
 * action sits on every post card, and the feed's first load must not carry zod (ADR 0046's budget).
 */

export type { ReportReason, ReportTarget };

/** The database's lists (db/schema), written out here so the browser gets no drizzle (report.test.ts holds them equal). */
export const REPORT_TARGETS = ["post", "comment", "user", "club"] as const satisfies readonly ReportTarget[];
export const REPORT_REASONS = ["spam", "harassment", "illegal", "off_topic", "other"] as const satisfies readonly ReportReason[];

export const REPORT_DETAILS_MAX = 1000;

/** What each category says on the form. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: "Spam or advertising",
  harassment: "Harassment or abuse",
  illegal: "Illegal hunting or other illegal activity",
  off_topic: "Off topic",
  other: "Something else",
};

export const REPORT_TARGET_NAMES: Record<ReportTarget, string> = { post: "post", comment: "comment", user: "member", club: "club" };

export const REPORT_THANKS = "Thanks — a moderator will look at it";
export const CHOOSE_REASON = "Choose what is wrong";
export const DETAILS_TOO_LONG = `Keep the details under ${REPORT_DETAILS_MAX} characters`;
export const ALREADY_REPORTED = "You have already reported this";
export const OWN_CONTENT = "You cannot report your own content";
