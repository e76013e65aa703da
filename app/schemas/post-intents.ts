import type { SubmissionResult } from "@conform-to/react";
import type { Comment } from "./shapes";
import type { FieldReportPicker } from "./field-report-form";

/**
 * Every post mutation posts to the post page's action (/post/{id}) with one of these intents on its
 * submit button. A plain form post is answered with a redirect and a flash toast; a script request
 * (useFetcher) with one of the JSON shapes below, so the page stays where it is.
 */
export const POST_INTENTS = ["like", "unlike", "share", "comment", "update-comment", "delete-comment", "update", "delete"] as const;
export type PostIntent = (typeof POST_INTENTS)[number];

export type PostActionData =
  | { intent: "like" | "unlike"; ok: true; likes: number; isLiked: boolean }
  | { intent: "share"; ok: true; shares: number }
  | { intent: "comment"; ok: true; commentId: number; comment?: Comment }
  | { intent: "delete-comment"; ok: true }
  | { intent: "update"; ok: true }
  // `fieldPicker`: the form sent back by the Field report's "List counties" (no JavaScript), that state's counties listed.
  | { intent: "update"; ok: false; result: SubmissionResult<string[]>; fieldPicker?: FieldReportPicker }
  | { intent: "update-comment"; ok: true }
  | { intent: string; ok: false; error: string; status: number; content?: string; commentId?: number };

/** Failures of a script request that the client shows as a toast. */
export type PostActionFailure = Extract<PostActionData, { error: string }>;

export function isFailure(data: PostActionData | undefined): data is PostActionFailure {
  return Boolean(data && data.ok === false && "error" in data);
}
