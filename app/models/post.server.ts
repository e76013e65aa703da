import { and, eq, sql } from "drizzle-orm";
import { likes, media, posts, postTags, shares, users, type LinkMetadata } from "#db/schema";
import { SIGN_IN, POST_NOT_FOUND } from "~/schemas/messages";
import { postInputSchema, postUpdateSchema, type PostInput, type PostUpdateInput } from "~/schemas/post";
import { db, decrementCounter, writeTransaction, type Tx } from "~/utils/db.server";
import { forbidden, invalid, notFound } from "~/utils/errors";
import { previewForPost } from "~/utils/link-metadata.server";
import { consumeLimit } from "~/utils/rate-limit.server";
import { tagKey } from "~/utils/tags";
import { zodFieldErrors } from "~/utils/validation";
import { canReadClub, requireMayPostIn, requireSignedIn } from "./access.server";
import { deleteMediaFiles, mediaFilesOfPost } from "./media.server";
import { loadPosts } from "./post-view.server";
import type { Actor } from "./user.server";
import { forgetTrending } from "./trending-cache.server";
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
 * The post as `actor` may see it: a missing post, or a private club's post for a non-member, is the
 * same 404 (its existence is not confirmed).
 */
function visiblePostOrThrow(actor: Actor, id: number) {
  const row = db.select({ id: posts.id, authorId: posts.authorId, clubId: posts.clubId }).from(posts).where(eq(posts.id, id)).get();
  if (!row) throw notFound(POST_NOT_FOUND);
  if (row.clubId !== null && !canReadClub(actor, row.clubId)) throw notFound(POST_NOT_FOUND);
  return row;
}

/** For the comments domain: the post exists and `actor` may read it (404 otherwise). */
export function assertPostVisible(actor: Actor, id: number): void {
  visiblePostOrThrow(actor, id);
}

/** One post, as `actor` sees it (404 'Post Not Found', also for a private club's post to outsiders). */
export function getPost(actor: Actor, id: number): Post {
  visiblePostOrThrow(actor, id);
  const [post] = loadPosts(actor, [id]);
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

function writeTags(tx: Tx, postId: number, tags: string[] | null | undefined) {
  tx.delete(postTags).where(eq(postTags.postId, postId)).run();
  const keys = new Set((tags ?? []).map(tagKey).filter(Boolean));
  if (keys.size)
    tx.insert(postTags)
      .values([...keys].map((key) => ({ postId, key })))
      .run();
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
  requireMayPostIn(author, data.clubId);
  const tags = data.tags?.length ? data.tags : null;
  const mediaUrl = data.mediaUrl ?? null;
  const urlMetadata = mediaUrl ? await (preview ?? serverPreview(author.id))(mediaUrl) : null;
  const id = writeTransaction((tx) => {
    // Again, under the write lock: the club may have gone while the preview was fetched.
    requireMayPostIn(author, data.clubId);
    consumeLimit("postsPerUser", String(author.id));
    const { id: postId } = tx
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
      })
      .returning({ id: posts.id })
      .get();
    writeTags(tx, postId, tags);
    for (const url of new Set(data.uploadedFiles ?? [])) {
      // The member's current avatar is an upload too; it never becomes part of a post (deleting the
      // post would delete the avatar's file).
      const attached = tx
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
        .run();
      if (attached.changes !== 1) {
        throw invalid({ uploadedFiles: ["That upload is not yours or is already part of a post. Upload it again."] });
      }
    }
    tx.update(users)
      .set({ postsCount: sql`${users.postsCount} + 1` })
      .where(eq(users.id, author.id))
      .run();
    return postId;
  });
  forgetTrending();
  return getPost(actor, id);
}

/** Edit a post: its author only (401 signed out, 403 someone else, 404 missing). A new media URL drops the old preview. */
export function updatePost(actor: Actor, id: number, input: PostUpdateInput): Post {
  const me = requireSignedIn(actor);
  const data = parseOrThrow(postUpdateSchema, input) as PostUpdateInput;
  writeTransaction((tx) => {
    const row = visiblePostOrThrow(actor, id);
    if (row.authorId !== me.id) throw forbidden("Only the author can edit this post");
    const current = tx.select({ mediaUrl: posts.mediaUrl }).from(posts).where(eq(posts.id, id)).get();
    const mediaUrl = data.mediaUrl ?? null;
    tx.update(posts)
      .set({
        title: data.title,
        content: data.content,
        ...(data.type ? { type: data.type } : {}),
        ...(current?.mediaUrl === mediaUrl ? {} : { urlMetadata: null }),
        mediaUrl,
        tags: data.tags ?? null,
        updatedAt: new Date(),
      })
      .where(eq(posts.id, id))
      .run();
    writeTags(tx, id, data.tags);
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
  const files = writeTransaction((tx) => {
    const row = visiblePostOrThrow(actor, id);
    if (row.authorId !== me.id) throw forbidden("Only the author can delete this post");
    const stored = mediaFilesOfPost(id);
    tx.delete(posts).where(eq(posts.id, id)).run();
    tx.update(users)
      .set({ postsCount: decrementCounter(users.postsCount) })
      .where(eq(users.id, row.authorId))
      .run();
    return stored;
  });
  forgetTrending();
  await deleteMediaFiles(files);
}

type LikeState = { likes: number; isLiked: boolean };

function countersOf(tx: Tx, id: number) {
  return tx.select({ likes: posts.likesCount, shares: posts.sharesCount }).from(posts).where(eq(posts.id, id)).get()!;
}

/** Like a post (signed in). Idempotent: a second like changes nothing. */
export function likePost(actor: Actor, id: number): LikeState {
  const me = requireSignedIn(actor, SIGN_IN.like);
  return writeTransaction((tx) => {
    visiblePostOrThrow(actor, id);
    const added = tx.insert(likes).values({ postId: id, userId: me.id }).onConflictDoNothing().run();
    if (added.changes)
      tx.update(posts)
        .set({ likesCount: sql`${posts.likesCount} + 1` })
        .where(eq(posts.id, id))
        .run();
    return { likes: countersOf(tx, id).likes, isLiked: true };
  });
}

/** Take a like back. Idempotent. */
export function unlikePost(actor: Actor, id: number): LikeState {
  const me = requireSignedIn(actor, SIGN_IN.like);
  return writeTransaction((tx) => {
    visiblePostOrThrow(actor, id);
    const removed = tx
      .delete(likes)
      .where(and(eq(likes.postId, id), eq(likes.userId, me.id)))
      .run();
    if (removed.changes)
      tx.update(posts)
        .set({ likesCount: decrementCounter(posts.likesCount) })
        .where(eq(posts.id, id))
        .run();
    return { likes: countersOf(tx, id).likes, isLiked: false };
  });
}

/**
 * Record a share (signed in). A member's shares of one post count once, so clicking Share again
 * (or a script) cannot push a post up the trending list (docs/decisions/0005-trending-formula.md).
 */
export function sharePost(actor: Actor, id: number): { shares: number } {
  const me = requireSignedIn(actor, SIGN_IN.share);
  return writeTransaction((tx) => {
    visiblePostOrThrow(actor, id);
    const already = tx
      .select({ id: shares.id })
      .from(shares)
      .where(and(eq(shares.postId, id), eq(shares.userId, me.id)))
      .limit(1)
      .get();
    if (!already) {
      tx.insert(shares).values({ postId: id, userId: me.id }).run();
      tx.update(posts)
        .set({ sharesCount: sql`${posts.sharesCount} + 1` })
        .where(eq(posts.id, id))
        .run();
    }
    return { shares: countersOf(tx, id).shares };
  });
}
