import { and, asc, desc, eq, gt, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { notify } from "~/models/notifications/notification.server";
import { comments, posts, users } from "#db/schema";
import { hiddenNoticeOf } from "~/models/moderation/moderation-removal.server";
import { SIGN_IN } from "~/schemas/messages";
import { commentSchema, type CommentInput } from "~/schemas/post";
import { db, decrementCounter, first, writeTransaction, type Tx } from "~/utils/db.server";
import { forbidden, invalid, notFound } from "~/utils/errors";
import { consumeLimit } from "~/utils/rate-limit.server";
import { zodFieldErrors } from "~/utils/validation";
import { requireSignedIn } from "~/models/access.server";
import { BLOCK_MESSAGES, notBlockedByViewer, refuseIfBlockedBy } from "~/models/members/block.server";
import { assertPostVisible, readablePost } from "./post.server";
import { authorColumns } from "./post-view.server";
import type { Actor } from "~/models/members/user.server";
import { enforceNewAccountLimits } from "~/models/moderation/new-account-limits.server";
import { notifyMentions, withMentions } from "./mention.server";
import type { Comment } from "~/schemas/shapes";

/**
 * Comments on a post. The post's comments_count changes in the same transaction as the comment, and
 * the post's visibility (a private club's post is 404 to outsiders) applies to its comments too.
 */

export const COMMENT_NOT_FOUND = "Comment not found";

function commentQuery() {
  return db
    .select({
      id: comments.id,
      content: comments.content,
      createdAt: comments.createdAt,
      author: authorColumns,
      hiddenAt: comments.hiddenAt,
      removalReason: comments.removalReason,
      removedBy: comments.removedBy,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorId));
}

function toComment(r: Awaited<ReturnType<typeof commentQuery>>[number]): Comment {
  const comment: Comment = { id: r.id, content: r.content, createdAt: r.createdAt.toISOString(), author: r.author };
  // Only a hidden comment carries it (its author's or a moderator's view).
  if (r.hiddenAt) comment.hidden = hiddenNoticeOf(r);
  return comment;
}

/**
 * Who sees which comments (CONTRACT.md §8): a hidden comment (removed, or hidden after reports) only
 * its author and the staff who may restore it. `viewer` 0 is nobody; `moderator` sees them all.
 */
export type CommentViewer = { viewer: number; moderator: boolean };

function visibleComments({ viewer, moderator }: CommentViewer): SQL | undefined {
  // Nor, to anyone, the comments of a member they blocked (§8 "Blocks").
  return and(
    moderator ? undefined : or(isNull(comments.hiddenAt), eq(comments.authorId, viewer)),
    notBlockedByViewer(comments.authorId, viewer),
  );
}

async function commentViewer(actor: Actor, postId: number): Promise<CommentViewer> {
  const { moderator } = await readablePost(actor, postId);
  return { viewer: actor?.id ?? 0, moderator };
}

/** A post's comments, oldest first (index comments_post): all of them, as `GET /api/posts/{id}/comments` without paging parameters answers. */
export async function listComments(actor: Actor, postId: number): Promise<Comment[]> {
  const who = await commentViewer(actor, postId);
  const rows = await commentQuery()
    .where(and(eq(comments.postId, postId), visibleComments(who)))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  return withMentions(rows.map(toComment));
}

/** Comments shown at once on the post page, and the default page of the API's paged form. */
export const COMMENT_PAGE_SIZE = 30;
export const COMMENT_MAX_PAGE = 100;

/** `from`: the cursor the page starts after, when it was a valid one (null: the first page). */
export type CommentPage = { comments: Comment[]; from: string | null; nextCursor: string | null };

/** Opaque to clients: base64url of "c.<createdAt ms>.<id>", the last comment shown. */
function encodeCommentCursor(createdAt: Date, id: number): string {
  return Buffer.from(`c.${createdAt.getTime()}.${id}`).toString("base64url");
}

/** The cursor's key, or null for junk (a caller then serves the first page). */
export function decodeCommentCursor(cursor: string | null | undefined): { at: Date; id: number } | null {
  const match = /^c\.(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(cursor ?? "", "base64url").toString("utf8"));
  return match ? { at: new Date(Number(match[1])), id: Number(match[2]) } : null;
}

/** The keyset condition "after (at, id)" on (created_at, id), which comments_post serves. */
function afterKey(key: { at: Date; id: number }): SQL {
  return or(gt(comments.createdAt, key.at), and(eq(comments.createdAt, key.at), gt(comments.id, key.id)))!;
}

/** The statement of one page (exported for the bench's EXPLAIN QUERY PLAN). */
export function commentPageQuery(
  postId: number,
  cursor: string | null | undefined,
  limit: number,
  who: CommentViewer = { viewer: 0, moderator: false },
) {
  const after = decodeCommentCursor(cursor);
  return commentQuery()
    .where(and(eq(comments.postId, postId), visibleComments(who), after ? afterKey(after) : undefined))
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .limit(limit + 1);
}

/**
 * One keyset page of a post's comments, oldest first, starting after `cursor` (junk or a cursor of
 * nothing: the first page). Comments added meanwhile land after every cursor already handed out, so
 * a page never repeats or skips one. `limit` is 1..COMMENT_MAX_PAGE.
 */
export async function listCommentPage(
  actor: Actor,
  postId: number,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<CommentPage> {
  const who = await commentViewer(actor, postId);
  const limit = Math.min(COMMENT_MAX_PAGE, Math.max(1, Math.trunc(options.limit ?? COMMENT_PAGE_SIZE) || COMMENT_PAGE_SIZE));
  const rows = await commentPageQuery(postId, options.cursor, limit, who);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const from = decodeCommentCursor(options.cursor) ? options.cursor! : null;
  return {
    comments: await withMentions(page.map(toComment)),
    from,
    nextCursor: rows.length > limit && last ? encodeCommentCursor(last.createdAt, last.id) : null,
  };
}

/**
 * The cursor of the page that ends with `commentId` (the page holding the newest COMMENT_PAGE_SIZE
 * comments up to it), or null when that is the first page: where a comment sent without JavaScript
 * lands. Reads at most a page of comments_post backwards.
 */
export async function pageEndingWith(postId: number, commentId: number): Promise<string | null> {
  const target = first(await db.select({ at: comments.createdAt }).from(comments).where(eq(comments.id, commentId)));
  if (!target) return null;
  const before = await db
    .select({ at: comments.createdAt, id: comments.id })
    .from(comments)
    .where(
      and(
        eq(comments.postId, postId),
        or(lt(comments.createdAt, target.at), and(eq(comments.createdAt, target.at), lt(comments.id, commentId))),
      ),
    )
    .orderBy(desc(comments.createdAt), desc(comments.id))
    .limit(COMMENT_PAGE_SIZE);
  const start = before[COMMENT_PAGE_SIZE - 1];
  return start ? encodeCommentCursor(start.at, start.id) : null;
}

/** Comment on a post (signed in; whitespace-only is refused; rate limited commentsPerUser). */
export async function addComment(actor: Actor, postId: number, input: CommentInput): Promise<Comment> {
  const me = requireSignedIn(actor, SIGN_IN.comment);
  const parsed = commentSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  return writeTransaction(async (tx) => {
    await assertPostVisible(actor, postId);
    // A member the post's author blocked cannot comment on it (§8 "Blocks").
    const author = first(await tx.select({ id: posts.authorId }).from(posts).where(eq(posts.id, postId)));
    if (author) await refuseIfBlockedBy(author.id, me.id, BLOCK_MESSAGES.comment, tx);
    await enforceNewAccountLimits(me.id, { kind: "comment", texts: [parsed.data.content] });
    await consumeLimit("commentsPerUser", String(me.id));
    const [row] = await tx
      .insert(comments)
      .values({ postId, authorId: me.id, content: parsed.data.content })
      .returning({ id: comments.id });
    const [post] = await tx
      .update(posts)
      .set({ commentsCount: sql`${posts.commentsCount} + 1` })
      .where(eq(posts.id, postId))
      .returning({ authorId: posts.authorId });
    // The mentions first: a post author the comment mentions hears of it once, as a mention.
    await notifyMentions(tx, me.id, { postId, commentId: row!.id }, parsed.data.content);
    if (post) await notify([post.authorId], { kind: "comment", actorId: me.id, postId, commentId: row!.id }, tx);
    return (await withMentions([toComment(first(await commentQuery().where(eq(comments.id, row!.id)))!)]))[0]!;
  });
}

/**
 * The comment an author may change, inside a write transaction: 404 when it is missing or its post
 * is hidden from the actor, 403 when the actor did not write it (not even the post's author may).
 */
async function ownComment(tx: Tx, actor: Actor, authorId: number, commentId: number, verb: string) {
  const row = first(
    await tx
      .select({ postId: comments.postId, authorId: comments.authorId, hiddenAt: comments.hiddenAt, content: comments.content })
      .from(comments)
      .where(eq(comments.id, commentId)),
  );
  if (!row) throw notFound(COMMENT_NOT_FOUND);
  try {
    await assertPostVisible(actor, row.postId);
  } catch {
    throw notFound(COMMENT_NOT_FOUND);
  }
  if (row.authorId !== authorId) throw forbidden(`Only the author can ${verb} this comment`);
  return row;
}

/** Edit a comment's text: its author only (401 signed out, 403 someone else, 404 missing; 400 blank or too long). */
export async function updateComment(actor: Actor, commentId: number, input: CommentInput): Promise<Comment> {
  const me = requireSignedIn(actor, SIGN_IN.comment);
  const parsed = commentSchema.safeParse(input);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  return writeTransaction(async (tx) => {
    const row = await ownComment(tx, actor, me.id, commentId, "edit");
    // A comment on the post of a member who has blocked its author stays as it was (security-3 P10).
    const post = first(await tx.select({ authorId: posts.authorId }).from(posts).where(eq(posts.id, row.postId)));
    if (post) await refuseIfBlockedBy(post.authorId, me.id, BLOCK_MESSAGES.editComment, tx);
    await enforceNewAccountLimits(me.id, { kind: "comment", texts: [parsed.data.content], edit: true });
    await tx.update(comments).set({ content: parsed.data.content }).where(eq(comments.id, commentId));
    await notifyMentions(tx, me.id, { postId: row.postId, commentId }, parsed.data.content, row.content);
    return (await withMentions([toComment(first(await commentQuery().where(eq(comments.id, commentId)))!)]))[0]!;
  });
}

/** Delete a comment: its author only (401 signed out, 403 someone else, 404 missing). */
export async function deleteComment(actor: Actor, commentId: number): Promise<void> {
  const me = requireSignedIn(actor);
  await writeTransaction(async (tx) => {
    const row = await ownComment(tx, actor, me.id, commentId, "delete");
    const removed = await tx.delete(comments).where(eq(comments.id, commentId)).returning({ id: comments.id });
    // comments_count counts visible comments: a hidden one was taken off when it was hidden.
    if (removed.length && row.hiddenAt === null) {
      await tx
        .update(posts)
        .set({ commentsCount: decrementCounter(posts.commentsCount) })
        .where(eq(posts.id, row.postId));
    }
  });
}
