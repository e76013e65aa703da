import type { Actor } from "~/models/user.server";
import { commentSchema, type CommentInput } from "~/schemas/post";
import { prepared, sqlite } from "~/utils/db.server";
import { forbidden, invalid, notFound, unauthorized } from "~/utils/errors";
import { consumeLimit } from "~/utils/rate-limit.server";
import { zodFieldErrors } from "~/utils/validation";
import { assertPostVisible, type PostAuthor } from "./post.server";

/**
 * Comments on a post. The post's comments_count changes in the same transaction as the comment, and
 * the post's visibility (a private club's post is 404 to outsiders) applies to its comments too.
 */

/** SPEC.md §3 Comment. */
export type Comment = { id: number; content: string; createdAt: string; author: PostAuthor };

export const COMMENT_NOT_FOUND = "Comment not found";

type CommentRow = {
  id: number;
  content: string;
  created_at: number;
  author_id: number;
  username: string;
  display_name: string;
  avatar: string | null;
};

const COMMENT_SELECT = `SELECT c.id, c.content, c.created_at, u.id AS author_id, u.username, u.display_name, u.avatar
  FROM comments c CROSS JOIN users u ON u.id = c.author_id`;

function toComment(r: CommentRow): Comment {
  return {
    id: r.id,
    content: r.content,
    createdAt: new Date(r.created_at).toISOString(),
    author: { id: r.author_id, username: r.username, displayName: r.display_name, avatar: r.avatar },
  };
}

/** A post's comments, oldest first (index comments_post). */
export async function listComments(actor: Actor, postId: number): Promise<Comment[]> {
  assertPostVisible(actor, postId);
  const rows = prepared(`${COMMENT_SELECT} WHERE c.post_id = ? ORDER BY c.created_at, c.id`).all(postId) as CommentRow[];
  return rows.map(toComment);
}

/** Comment on a post (signed in; whitespace-only is refused; rate limited commentsPerUser). */
export async function addComment(actor: Actor, postId: number, input: CommentInput): Promise<Comment> {
  if (!actor) throw unauthorized("Please sign in to comment");
  const parsed = commentSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  assertPostVisible(actor, postId);
  const id = sqlite.transaction(() => {
    consumeLimit("commentsPerUser", String(actor.id));
    const { lastInsertRowid } = prepared(`INSERT INTO comments (post_id, author_id, content) VALUES (?, ?, ?)`).run(
      postId,
      actor.id,
      parsed.data.content,
    );
    prepared(`UPDATE posts SET comments_count = comments_count + 1 WHERE id = ?`).run(postId);
    return Number(lastInsertRowid);
  })();
  return toComment(prepared(`${COMMENT_SELECT} WHERE c.id = ?`).get(id) as CommentRow);
}

/** Delete a comment: its author only (401 signed out, 403 someone else, 404 missing). */
export async function deleteComment(actor: Actor, commentId: number): Promise<void> {
  if (!actor) throw unauthorized();
  const row = prepared(`SELECT id, post_id, author_id FROM comments WHERE id = ?`).get(commentId) as
    | { id: number; post_id: number; author_id: number }
    | undefined;
  if (!row) throw notFound(COMMENT_NOT_FOUND);
  try {
    assertPostVisible(actor, row.post_id);
  } catch {
    throw notFound(COMMENT_NOT_FOUND);
  }
  if (row.author_id !== actor.id) throw forbidden("Only the author can delete this comment");
  sqlite.transaction(() => {
    const removed = prepared(`DELETE FROM comments WHERE id = ?`).run(commentId);
    if (removed.changes) {
      prepared(`UPDATE posts SET comments_count = max(0, comments_count - 1) WHERE id = ?`).run(row.post_id);
    }
  })();
}
