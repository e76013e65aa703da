import { sqlite } from "~/utils/db.server";

/** Test data written straight to the database (clubs and media have their own domains). */

export function makeClub(ownerId: number, { isPrivate = false, name = "Test Club" } = {}): number {
  const { lastInsertRowid } = sqlite
    .prepare(`INSERT INTO clubs (name, description, is_private, creator_id, member_count) VALUES (?, 'A club for tests', ?, ?, 1)`)
    .run(name, isPrivate ? 1 : 0, ownerId);
  const clubId = Number(lastInsertRowid);
  sqlite.prepare(`INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'owner')`).run(clubId, ownerId);
  return clubId;
}

export function addMember(clubId: number, userId: number) {
  sqlite.prepare(`INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')`).run(clubId, userId);
  sqlite.prepare(`UPDATE clubs SET member_count = member_count + 1 WHERE id = ?`).run(clubId);
}

let mediaN = 0;
export function makeMedia(ownerId: number, kind: "image" | "video" | "audio" = "image"): string {
  mediaN += 1;
  const url = `/media/test-${ownerId}-${mediaN}.${kind === "image" ? "jpg" : kind === "video" ? "mp4" : "mp3"}`;
  sqlite
    .prepare(
      `INSERT INTO media (owner_id, kind, storage_key, url, name, mime_type, size, width, height, variants)
       VALUES (?, ?, ?, ?, ?, ?, 1000, ?, ?, ?)`,
    )
    .run(
      ownerId,
      kind,
      url.slice(7),
      url,
      `file${mediaN}`,
      kind === "image" ? "image/jpeg" : kind === "video" ? "video/mp4" : "audio/mpeg",
      kind === "image" ? 800 : null,
      kind === "image" ? 600 : null,
      kind === "image" ? JSON.stringify([{ width: 400, height: 300, url: `${url}?w=400`, key: "k400" }]) : null,
    );
  return url;
}

export function count(sql: string, ...params: unknown[]): number {
  return (sqlite.prepare(sql).get(...params) as { n: number }).n;
}

/** Set a post's counters and age directly (for sort and trending tests). */
export function setPostStats(id: number, stats: { likes?: number; comments?: number; shares?: number; createdAt?: number }) {
  sqlite
    .prepare(
      `UPDATE posts SET likes_count = coalesce(@likes, likes_count), comments_count = coalesce(@comments, comments_count),
       shares_count = coalesce(@shares, shares_count), created_at = coalesce(@createdAt, created_at) WHERE id = @id`,
    )
    .run({ id, likes: stats.likes ?? null, comments: stats.comments ?? null, shares: stats.shares ?? null, createdAt: stats.createdAt ?? null });
}
