import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { clubs, fieldReports, likes, media, posts, users } from "#db/schema";
import type { UploadedFile } from "~/schemas/media-options";
import { db, preparedOnce } from "~/utils/db.server";
import { idsIn } from "~/utils/db/sql-dialect.server";
import { withKnownPreviews } from "./link-preview.server";
import { publicVariant } from "~/models/media/media.server";
import { withMentions } from "./mention.server";
import { hiddenNoticeOf } from "~/models/moderation/moderation-removal.server";
import { fieldReportColumns, toFieldReport } from "~/models/places/field-report.server";
import type { Actor } from "~/models/members/user.server";
import type { Post } from "~/schemas/shapes";

/**
 * Posts as SPEC.md §3 shows them: one mapping from rows to Posts, used by both read paths (one
 * post in post.server.ts, the feed's pages in feed.server.ts). A few queries per page, whatever
 * its size: the posts with their authors, clubs and the viewer's likes, then every post's media,
 * then (only when a text on the page has @mentions) the members they name.
 */

export type { UploadedFile };

/** The columns of a post with its author, for an author alias or users itself. */
export const authorColumns = { id: users.id, username: users.username, displayName: users.displayName, avatar: users.avatar };

// Both reads run for every page of posts, so each is built and prepared once; the ids go in as JSON.
const postRecordsQuery = preparedOnce(() =>
  db
    .select({
      post: posts,
      author: authorColumns,
      club: { id: clubs.id, name: clubs.name },
      likedBy: likes.userId,
      field: fieldReportColumns,
    })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .leftJoin(clubs, eq(clubs.id, posts.clubId))
    .leftJoin(fieldReports, eq(fieldReports.postId, posts.id))
    .leftJoin(likes, and(eq(likes.postId, posts.id), eq(likes.userId, sql.placeholder("viewer"))))
    .where(inArray(posts.id, idsIn("ids")))
    .prepare(),
);

const filesQuery = preparedOnce(() =>
  db
    .select({
      postId: media.postId,
      type: media.kind,
      url: media.url,
      name: media.name,
      width: media.width,
      height: media.height,
      variants: media.variants,
      size: media.size,
    })
    .from(media)
    .where(inArray(media.postId, idsIn("ids")))
    .orderBy(asc(media.postId), asc(media.id))
    .prepare(),
);

const postRecords = (ids: readonly number[], viewer: number) => postRecordsQuery().execute({ ids: JSON.stringify(ids), viewer });

type PostRecord = Awaited<ReturnType<typeof postRecords>>[number];

async function filesOf(ids: readonly number[]): Promise<Map<number, UploadedFile[]>> {
  const rows = await filesQuery().execute({ ids: JSON.stringify(ids) });
  const files = new Map<number, UploadedFile[]>();
  for (const { postId, width, height, variants, ...file } of rows) {
    const f: UploadedFile = file;
    if (width !== null) f.width = width;
    if (height !== null) f.height = height;
    if (variants?.length) f.variants = variants.map(publicVariant);
    files.set(postId!, [...(files.get(postId!) ?? []), f]);
  }
  return files;
}

/** One row → a SPEC.md Post: the one mapping both read paths use. */
function toPost({ post: p, author, club, likedBy, field }: PostRecord, files: UploadedFile[]): Post {
  return {
    id: p.id,
    title: p.title,
    content: p.content,
    type: p.type,
    mediaUrl: p.mediaUrl,
    urlMetadata: p.urlMetadata ?? null,
    tags: p.tags?.length ? p.tags : null,
    clubId: p.clubId,
    club: club ?? null,
    createdAt: p.createdAt.toISOString(),
    author,
    likes: p.likesCount,
    commentsCount: p.commentsCount,
    shares: p.sharesCount,
    isLiked: likedBy !== null,
    uploadedFiles: files,
    sensitive: p.sensitive,
    field: toFieldReport(field),
    // Only a hidden post carries it (its author's or a moderator's view): every other answer is unchanged.
    ...(p.hiddenAt ? { hidden: hiddenNoticeOf(p) } : {}),
  };
}

/**
 * The posts with these ids, in this order, as `actor` sees them (likes), with their clubs, media,
 * mentions and link previews: two to four queries.
 */
export async function loadPosts(actor: Actor, ids: readonly number[]): Promise<Post[]> {
  if (ids.length === 0) return [];
  const [recordRows, files] = await Promise.all([postRecords(ids, actor?.id ?? 0), filesOf(ids)]);
  const records = new Map(recordRows.map((r) => [r.post.id, r]));
  const found = ids.flatMap((id) => {
    const record = records.get(id);
    return record ? [toPost(record, files.get(id) ?? [])] : [];
  });
  // A third query only when a post on the page @mentions someone (mention.server.ts), a fourth only
  // when one has a link without its stored preview (the cached one, drawn by the server:
  // link-preview.server.ts); the two run together.
  const [mentioned, previewed] = await Promise.all([withMentions(found), withKnownPreviews(found)]);
  return mentioned.map((post, i) =>
    post.urlMetadata === previewed[i]!.urlMetadata ? post : { ...post, urlMetadata: previewed[i]!.urlMetadata },
  );
}
