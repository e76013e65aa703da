import { eq } from "drizzle-orm";
import { posts } from "#db/schema";
import { writeTransaction, first, type Tx } from "~/utils/db.server";
import type { Actor } from "~/models/members/user.server";
import { logDecision } from "./moderation-log.server";
import { requireDecider } from "./moderation-removal.server";

/**
 * Staff mark a post as a graphic photo, or clear the mark (CONTRACT.md §14 "Graphic photos",
 * docs/decisions/0091-graphic-photos.md). The same people who may remove it may do this, by the same
 * rule (`requireDecider`): site staff anywhere, a club's owner and admins on the club's posts but not
 * their own (their own they mark as its author, on edit). 401 signed out, 403 anyone else, 404 no
 * such post. A change is logged with the decision in one transaction; setting the mark it already
 * has changes and logs nothing. The author does the same on edit (post.server.ts `updatePost`).
 */
export async function setPostSensitive(actor: Actor, postId: number, sensitive: boolean): Promise<{ id: number; sensitive: boolean }> {
  const target = { type: "post" as const, id: postId };
  await writeTransaction(async (tx: Tx) => {
    const { me, row } = await requireDecider(tx, actor, target);
    const now = first(await tx.select({ sensitive: posts.sensitive }).from(posts).where(eq(posts.id, postId)));
    if (now?.sensitive === sensitive) return;
    await tx.update(posts).set({ sensitive }).where(eq(posts.id, postId));
    await logDecision(tx, {
      actor: me,
      action: sensitive ? "mark_sensitive" : "unmark_sensitive",
      targetType: "post",
      targetId: postId,
      targetLabel: row.label,
      clubId: row.clubId,
    });
  });
  return { id: postId, sensitive };
}
