import * as z from "zod/mini";

/**
 * Marking notifications read (CONTRACT.md §7): `POST /api/notifications/read` `{ ids? }` and the
 * /notifications page's forms read the same schema. No `ids`: all of the member's notifications.
 * Browser-safe.
 */

export const MARK_READ_MAX_IDS = 100;
const CHOOSE = "Choose notifications to mark read";

export const notificationIdSchema = z.number({ error: CHOOSE }).check(z.int(CHOOSE), z.positive(CHOOSE));

export const markReadSchema = z.object({
  ids: z.optional(
    z.array(notificationIdSchema).check(z.maxLength(MARK_READ_MAX_IDS, `Mark at most ${MARK_READ_MAX_IDS} notifications at once`)),
  ),
});

export type MarkReadInput = z.infer<typeof markReadSchema>;
