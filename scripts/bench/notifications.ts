/**
 * Issue 26's bench row: what a member's unread notifications cost their home page. The seeded file
 * is copied twice; in both, member 1 has the same 1,000 notifications (every kind, with actors,
 * posts, comments and clubs), read in one copy and unread in the other, so the two pages differ in
 * nothing but the unread count the top bar draws (the capped walk of notifications_unread). An app
 * on each copy, and the two homes timed in alternating pairs, one in flight (loadPair: both sample
 * the same moments of machine load), as the bench's other p50 budgets are. Budget: the unread
 * member's p50 ≤ 1.05 × the other's.
 *
 * `seedNotifications` also gives the seeded databases other members' notifications, so the plan
 * check (bench/explain.ts) explains the count and the list on a table of realistic size.
 */
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { loadPair, request } from "./load";
import { BENCH_DIR, signIn, startApp } from "./servers";

/** Member 1's notifications in the measured copies. */
export const MEMBER_NOTIFICATIONS = 1_000;
const KINDS = ["comment", "mention", "like", "follow", "join_request", "club_post", "moderation", "request_approved"] as const;

async function open(file: string, readonly = false): Promise<Database.Database> {
  const Sqlite = (await import("better-sqlite3")).default;
  return new Sqlite(file, { readonly });
}

/**
 * `n` notifications for `userId`, read (`readAt`) or unread: kinds in turn, actors among the other
 * members, public posts (a like's post never repeats, as notifications_like_group wants while unread),
 * the post's first comment, a club. Already delivered (sent_at set): the app's mail worker has nothing to do.
 */
function insertFor(db: Database.Database, userId: number, n: number, readAt: number | null) {
  const posts = db
    .prepare(
      `SELECT p.id, p.club_id AS clubId, (SELECT min(c.id) FROM comments c WHERE c.post_id = p.id) AS commentId
       FROM posts p WHERE p.hidden_at IS NULL ORDER BY p.id DESC LIMIT ?`,
    )
    .all(n) as { id: number; clubId: number | null; commentId: number | null }[];
  const actors = (db.prepare(`SELECT id FROM users WHERE id <> ? ORDER BY id LIMIT 50`).all(userId) as { id: number }[]).map((r) => r.id);
  const clubs = (db.prepare(`SELECT id FROM clubs ORDER BY id LIMIT 20`).all() as { id: number }[]).map((r) => r.id);
  const insert = db.prepare(
    `INSERT INTO notifications (user_id, kind, actor_id, actor_count, post_id, comment_id, club_id, detail, reason, read_at, sent_at, created_at)
     VALUES (@userId, @kind, @actorId, @actorCount, @postId, @commentId, @clubId, @detail, @reason, @readAt, @at, @at)`,
  );
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const kind = KINDS[i % KINDS.length]!;
    const post = posts[i % posts.length]!;
    const withPost = !["follow", "join_request", "request_approved"].includes(kind);
    const club = kind === "club_post" ? post.clubId : ["join_request", "request_approved"].includes(kind) ? clubs[i % clubs.length] : null;
    const at = now - (n - i) * 60_000;
    insert.run({
      userId,
      kind,
      actorId: kind === "moderation" ? null : actors[i % actors.length]!,
      actorCount: kind === "like" ? 1 + (i % 7) : 1,
      postId: withPost ? post.id : null,
      commentId: kind === "comment" || kind === "mention" ? post.commentId : null,
      clubId: club ?? null,
      detail: kind === "moderation" ? "removed" : null,
      reason: kind === "moderation" ? "Off topic" : null,
      readAt: readAt === null ? null : readAt + i,
      at,
    });
  }
}

/** Other members' notifications (`perMember` each, every third one unread) in a seeded file: a table of realistic size for the plan check. */
export async function seedNotifications(file: string, perMember = 150, members = 200) {
  const db = await open(file);
  const started = Date.now();
  const ids = (db.prepare(`SELECT id FROM users WHERE id > 1 ORDER BY id LIMIT ?`).all(members) as { id: number }[]).map((r) => r.id);
  db.transaction(() => {
    ids.forEach((id, k) => insertFor(db, id, perMember, k % 3 === 0 ? null : Date.now()));
  })();
  const { n } = db.prepare(`SELECT count(*) AS n FROM notifications`).get() as { n: number };
  db.close();
  console.log(`  notifications: ${n} rows for ${ids.length} members (${((Date.now() - started) / 1000).toFixed(1)}s)`);
}

/** A copy of `file` where member 1 has MEMBER_NOTIFICATIONS notifications, all unread or all read. */
async function copyWith(file: string, to: string, unread: boolean) {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${to}${suffix}`, { force: true });
  const source = await open(file, true);
  source.prepare(`VACUUM INTO ?`).run(to);
  source.close();
  const db = await open(to);
  db.transaction(() => {
    db.prepare(`DELETE FROM notifications WHERE user_id = 1`).run();
    insertFor(db, 1, MEMBER_NOTIFICATIONS, unread ? null : Date.now());
  })();
  db.close();
}

export type NotificationRow = { none: number; many: number; pairs: number; titles: [string, string] };

const titleOf = (html: Buffer) => /<title>([^<]*)<\/title>/.exec(html.toString())?.[1] ?? "";

/** Member 1's home with no unread notifications vs with 1,000 (see the header); p50 ms of each. */
export async function notificationRows(file: string, ports: [number, number], pairs = 400): Promise<NotificationRow> {
  const dir = path.join(BENCH_DIR, "notifications");
  fs.mkdirSync(dir, { recursive: true });
  const none = path.join(dir, "none.db");
  const many = path.join(dir, "unread-1000.db");
  await copyWith(file, none, false);
  await copyWith(file, many, true);
  const apps = [await startApp(none, ports[0]), await startApp(many, ports[1])];
  try {
    const cookies = [await signIn(apps[0]!.port, none), await signIn(apps[1]!.port, many)];
    const targets = apps.map((app, i) => ({ port: app.port, path: "/", headers: { Cookie: cookies[i]! } }));
    const pages = await Promise.all(targets.map((t) => request(t.port, t.path, t.headers)));
    const titles = pages.map((p) => titleOf(p.body)) as [string, string];
    // The pages must be what they claim: a member's home each, and only the second with a count.
    if (pages.some((p) => p.status !== 200)) throw new Error(`home answered ${pages.map((p) => p.status).join(", ")}`);
    if (/^\(\d/.test(titles[0]) || !titles[1].startsWith("(99+)")) throw new Error(`unexpected titles: ${titles.join(" | ")}`);
    const result = await loadPair(targets[0]!, targets[1]!, pairs, 1);
    return { none: result.a, many: result.b, pairs: result.pairs, titles };
  } finally {
    for (const app of apps) await app.stop();
  }
}
