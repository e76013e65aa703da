import { and, eq, sql } from "drizzle-orm";
import { queueClubPostFanout } from "~/models/notifications/notification-fanout.server";
import { notify } from "~/models/notifications/notification.server";
import { likes, media, posts, postTags, shares, users, type LinkMetadata, type Remover } from "#db/schema";
import { SIGN_IN, POST_NOT_FOUND } from "~/schemas/messages";
import { postInputSchema, postUpdateSchema, type PostInput, type PostUpdateInput } from "~/schemas/post";
import { afterCommit, decrementCounter, first, writeTransaction, type Tx } from "~/utils/db.server";
import { forbidden, invalid, notFound } from "~/utils/errors";
import { previewForPost } from "~/utils/link-metadata.server";
import { consumeLimit } from "~/utils/rate-limit.server";
import { tagKey } from "~/utils/tags";
import { zodFieldErrors } from "~/utils/validation";
import { canReadClub, postVisibility, requireMayPostIn, requireSignedIn } from "~/models/access.server";
import { deleteMediaFiles, mediaFilesOfPost } from "~/models/media/media.server";
import { mayModerate } from "~/models/moderation/moderation-access.server";
import { loadPosts } from "./post-view.server";
import { checkFieldReport, writeFieldReport } from "~/models/places/field-report.server";
import { enforceNewAccountLimits } from "~/models/moderation/new-account-limits.server";
import { notifyMentions } from "./mention.server";
import type { Actor } from "~/models/members/user.server";
import { forgetTrending } from "~/models/feeds/trending-cache.server";
import type { Post } from "~/schemas/shapes";

/**
 * A post: reading one, publishing (with its server-fetched link preview), editing, deleting,
 * likes and shares. Every function checks its own permissions and throws the error family
 * (app/utils/errors.ts). Everything here goes through drizzle's query builder; the feed's lists
 * (keyset pages, search, trending) are feed.server.ts and feed-search.server.ts, and both read
 * paths turn rows into SPEC.md Posts with `loadPosts` (post-view.server.ts). Counters (likes, comments, shares,
 * posts_count) are stored on the rows and changed in the same transaction as what they count.
 */

export type { UploadedFile } from "./post-view.server";
/** Transitional: the feed moved to feed.server.ts; import it from there. */

// ---------------------------------------------------------------------------------------------
// Visibility

/**
 * May `actor` decide on content in this place (site staff, or the club's staff)? They see hidden
 * posts and comments there, with the notice, so they can restore them.
 */
export async function isModeratorOf(actor: Actor, clubId: number | null): Promise<boolean> {
  return (await moderatesAs(actor, clubId)) !== null;
}

/**
 * As whom the actor moderates content in this place: "site" staff, the club's own staff ("club",
 * who may not change a site removal nor decide on their own content), or null.
 */
export async function moderatesAs(actor: Actor, clubId: number | null): Promise<Remover | null> {
  return (await mayModerate(actor, { clubId }))?.as ?? null;
}

/**
 * The post as `actor` may see it: a missing post, a private club's post for a non-member, or a
 * hidden post (removed, or hidden after reports: CONTRACT.md §8) for anyone but its author is the
 * same 404 (its existence is not confirmed). `staffToo`: the staff who may restore it see it too
 * (reading it, not liking or commenting).
 */
async function visiblePostOrThrow(actor: Actor, id: number, staffToo = false) {
  const row = await postVisibility(actor, id);
  if (!row) throw notFound(POST_NOT_FOUND);
  if (row.clubId !== null && !(await canReadClub(actor, row.clubId))) throw notFound(POST_NOT_FOUND);
  if (!row.visible && !(staffToo && (await isModeratorOf(actor, row.clubId)))) throw notFound(POST_NOT_FOUND);
  return row;
}

/** For the comments domain: the post exists and `actor` may read it (404 otherwise). */
export async function assertPostVisible(actor: Actor, id: number): Promise<void> {
  await visiblePostOrThrow(actor, id);
}

/**
 * For reading a post's comments: the post exists and `actor` may read it, the staff who may restore
 * a hidden post included (404 otherwise); whether `actor` moderates its place (they see hidden comments).
 */
export async function readablePost(actor: Actor, id: number): Promise<{ moderator: boolean }> {
  const row = await visiblePostOrThrow(actor, id, true);
  return { moderator: await isModeratorOf(actor, row.clubId) };
}

/** One post, as `actor` sees it (404 'Post Not Found', also for a private club's post to outsiders, and a hidden post to all but its author and the staff who may restore it). */
export async function getPost(actor: Actor, id: number): Promise<Post> {
  await visiblePostOrThrow(actor, id, true);
  const [post] = await loadPosts(actor, [id]);
  if (!post) throw notFound(POST_NOT_FOUND);
  return post;
}

// ---------------------------------------------------------------------------------------------
// Writes

function parseOrThrow<S extends typeof postInputSchema | typeof postUpdateSchema>(schema: S, input: unknown) {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  return parsed.data;
}

async function writeTags(tx: Tx, postId: number, tags: string[] | null | undefined) {
  await tx.delete(postTags).where(eq(postTags.postId, postId));
  const keys = new Set((tags ?? []).map(tagKey).filter(Boolean));
  if (keys.size) await tx.insert(postTags).values([...keys].map((key) => ({ postId, key })));
}

/** Where a post's link preview comes from: the server fetches it (SSRF-guarded, cached, time-boxed). */
export type PreviewPort = (mediaUrl: string) => Promise<LinkMetadata | null>;

/**
 * The server's own preview for the author's post: a fresh cached fetch is reused (the editor's
 * preview), a new fetch counts against the author's `linkPreviewsPerUser` limit, and a failed or
 * refused fetch leaves the post without a preview (it is still published).
 */
const serverPreview =
  (authorId: number): PreviewPort =>
  (mediaUrl) =>
    previewForPost(mediaUrl, undefined, { beforeFetch: () => consumeLimit("linkPreviewsPerUser", String(authorId)) });

/**
 * Publish a post. Club posts need membership of the club (403); uploaded files must be the
 * author's own, not yet attached, and are attached here; posts_count and post_tags change in the
 * same transaction. Rate limited (postsPerUser).
 *
 * The link preview is the server's, never the client's (security review L7): `input.urlMetadata`
 * (the JSON API's body may carry it, SPEC.md §7) is ignored, and a post with a media URL gets its
 * preview from `preview`, the SSRF-guarded server-side fetch, before it is stored. Both doors (JSON
 * and the HTML form) end the same.
 */
export async function createPost(actor: Actor, input: PostInput, { preview }: { preview?: PreviewPort } = {}): Promise<Post> {
  const author = requireSignedIn(actor, SIGN_IN.createPost);
  const data = parseOrThrow(postInputSchema, input) as PostInput;
  checkFieldReport(data.field);
  await requireMayPostIn(author, data.clubId);
  const tags = data.tags?.length ? data.tags : null;
  const mediaUrl = data.mediaUrl ?? null;
  const urlMetadata = mediaUrl ? await (preview ?? serverPreview(author.id))(mediaUrl) : null;
  // The preview was fetched before the transaction: nothing but database work happens inside it.
  const id = await writeTransaction(async (tx) => {
    // Again, under the write lock: the club may have gone while the preview was fetched.
    await requireMayPostIn(author, data.clubId, tx);
    await enforceNewAccountLimits(author.id, { kind: "post", texts: [data.title, data.content, mediaUrl] });
    await consumeLimit("postsPerUser", String(author.id));
    const [inserted] = await tx
      .insert(posts)
      .values({
        authorId: author.id,
        clubId: data.clubId ?? null,
        type: data.type,
        title: data.title,
        content: data.content,
        mediaUrl,
        urlMetadata,
        tags,
        sensitive: data.sensitive ?? false,
      })
      .returning({ id: posts.id });
    const postId = inserted!.id;
    await writeTags(tx, postId, tags);
    await writeFieldReport(tx, postId, author.id, data.field ?? null);
    await notifyMentions(tx, author.id, { postId }, data.content);
    for (const url of new Set(data.uploadedFiles ?? [])) {
      // The member's current avatar is an upload too; it never becomes part of a post (deleting the
      // post would delete the avatar's file).
      const attached = await tx
        .update(media)
        .set({ postId })
        .where(
          and(
            eq(media.url, url),
            eq(media.ownerId, author.id),
            sql`${media.postId} IS NULL`,
            sql`NOT EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${media.ownerId} AND ${users.avatar} = ${media.url})`,
          ),
        )
        .returning({ id: media.id });
      if (attached.length !== 1) {
        throw invalid({ uploadedFiles: ["That upload is not yours or is already part of a post. Upload it again."] });
      }
    }
    await tx
      .update(users)
      .set({ postsCount: sql`${users.postsCount} + 1` })
      .where(eq(users.id, author.id));
    // The members who asked to hear of this club's posts are told off the request (notification-fanout.server.ts).
    if (data.clubId) await queueClubPostFanout(tx, { postId, clubId: data.clubId, actorId: author.id });
    return postId;
  });
  afterCommit(forgetTrending);
  return getPost(actor, id);
}

/**
 * Edit a post: its author only (401 signed out, 403 someone else, 404 missing). A new media URL drops
 * the old preview. `sensitive` absent keeps the mark; the author may set or clear it (staff do it
 * through `setPostSensitive`, moderation-sensitive.server.ts).
 */
export async function updatePost(actor: Actor, id: number, input: PostUpdateInput): Promise<Post> {
  const me = requireSignedIn(actor);
  const data = parseOrThrow(postUpdateSchema, input) as PostUpdateInput;
  checkFieldReport(data.field);
  await writeTransaction(async (tx) => {
    const row = await visiblePostOrThrow(actor, id);
    if (row.authorId !== me.id) throw forbidden("Only the author can edit this post");
    await enforceNewAccountLimits(me.id, { kind: "post", texts: [data.title, data.content, data.mediaUrl], edit: true });
    const current = first(await tx.select({ mediaUrl: posts.mediaUrl, content: posts.content }).from(posts).where(eq(posts.id, id)));
    const mediaUrl = data.mediaUrl ?? null;
    await tx
      .update(posts)
      .set({
        title: data.title,
        content: data.content,
        ...(data.type ? { type: data.type } : {}),
        ...(current?.mediaUrl === mediaUrl ? {} : { urlMetadata: null }),
        mediaUrl,
        tags: data.tags ?? null,
        ...(data.sensitive === undefined ? {} : { sensitive: data.sensitive }),
        updatedAt: new Date(),
      })
      .where(eq(posts.id, id));
    await writeTags(tx, id, data.tags);
    await writeFieldReport(tx, id, me.id, data.field);
    await notifyMentions(tx, me.id, { postId: id }, data.content, current?.content);
  });
  return getPost(actor, id);
}

/**
 * Delete a post: its author only. Comments, likes, shares, tags and media rows go with it (foreign
 * keys cascade); the author's posts_count drops in the same transaction. The stored media files
 * (pictures, their variants, video, audio) are deleted from storage once that has committed.
 */
export async function deletePost(actor: Actor, id: number): Promise<void> {
  const me = requireSignedIn(actor);
  const files = await writeTransaction(async (tx) => {
    const row = await visiblePostOrThrow(actor, id);
    if (row.authorId !== me.id) throw forbidden("Only the author can delete this post");
    const stored = await mediaFilesOfPost(id);
    await tx.delete(posts).where(eq(posts.id, id));
    // posts_count counts visible posts: a hidden one (removed, or hidden after reports) was taken off when it was hidden.
    if (!row.hidden)
      await tx
        .update(users)
        .set({ postsCount: decrementCounter(users.postsCount) })
        .where(eq(users.id, row.authorId));
    return stored;
  });
  afterCommit(forgetTrending);
  await deleteMediaFiles(files);
}

type LikeState = { likes: number; isLiked: boolean };

async function countersOf(tx: Tx, id: number) {
  return first(await tx.select({ likes: posts.likesCount, shares: posts.sharesCount }).from(posts).where(eq(posts.id, id)))!;
}

/** Like a post (signed in). Idempotent: a second like changes nothing. */
export async function likePost(actor: Actor, id: number): Promise<LikeState> {
  const me = requireSignedIn(actor, SIGN_IN.like);
  return writeTransaction(async (tx) => {
    await visiblePostOrThrow(actor, id);
    const added = await tx.insert(likes).values({ postId: id, userId: me.id }).onConflictDoNothing().returning({ postId: likes.postId });
    if (added.length) {
      const [post] = await tx
        .update(posts)
        .set({ likesCount: sql`${posts.likesCount} + 1` })
        .where(eq(posts.id, id))
        .returning({ authorId: posts.authorId });
      if (post) await notify([post.authorId], { kind: "like", actorId: me.id, postId: id }, tx);
    }
    return { likes: (await countersOf(tx, id)).likes, isLiked: true };
  });
}

/** Take a like back. Idempotent. */
export async function unlikePost(actor: Actor, id: number): Promise<LikeState> {
  const me = requireSignedIn(actor, SIGN_IN.like);
  return writeTransaction(async (tx) => {
    await visiblePostOrThrow(actor, id);
    const removed = await tx
      .delete(likes)
      .where(and(eq(likes.postId, id), eq(likes.userId, me.id)))
      .returning({ postId: likes.postId });
    if (removed.length)
      await tx
        .update(posts)
        .set({ likesCount: decrementCounter(posts.likesCount) })
        .where(eq(posts.id, id));
    return { likes: (await countersOf(tx, id)).likes, isLiked: false };
  });
}

/**
 * Record a share (signed in). A member's shares of one post count once, so clicking Share again
 * (or a script) cannot push a post up the trending list (docs/decisions/0005-trending-formula.md).
 */
export async function sharePost(actor: Actor, id: number): Promise<{ shares: number }> {
  const me = requireSignedIn(actor, SIGN_IN.share);
  return writeTransaction(async (tx) => {
    await visiblePostOrThrow(actor, id);
    const already = first(
      await tx
        .select({ id: shares.id })
        .from(shares)
        .where(and(eq(shares.postId, id), eq(shares.userId, me.id)))
        .limit(1),
    );
    if (!already) {
      await tx.insert(shares).values({ postId: id, userId: me.id });
      await tx
        .update(posts)
        .set({ sharesCount: sql`${posts.sharesCount} + 1` })
        .where(eq(posts.id, id));
    }
    return { shares: (await countersOf(tx, id)).shares };
  });
}
