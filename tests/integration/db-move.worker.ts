/**
 * The app's side of tests/integration/db-move.test.ts, in a process of its own: the database facade
 * binds to one engine per process (DATABASE_PATH, or DATABASE_URL when set), so the test runs this
 * once on the SQLite site and once on the PostgreSQL copy. Prints one JSON line.
 *
 *   node --import tsx tests/integration/db-move.worker.ts build            (SQLite: a site with real rows)
 *   node --import tsx tests/integration/db-move.worker.ts search <userId> <query>…
 *   node --import tsx tests/integration/db-move.worker.ts write <userId>   (a new session and post)
 */
import { seedDemoIfEmpty } from "#db/seed-demo";
import { addComment } from "~/models/posts/comment.server";
import { createClub } from "~/models/clubs/club.server";
import { setDataSaver } from "~/models/members/data-saver.server";
import { listFeed } from "~/models/feeds/feed.server";
import { claimKey, recordAnswer } from "~/models/idempotency.server";
import { createPost, likePost } from "~/models/posts/post.server";
import { createSession } from "~/models/members/session.server";
import { createClubSchema } from "~/schemas/club";
import { postInputSchema } from "~/schemas/post";
import { closeDatabase, databaseEngine, db, queryRow, sqlite, writeTransaction } from "~/utils/db.server";

const [mode, ...args] = process.argv.slice(2);

async function build() {
  if (databaseEngine() !== "sqlite") throw new Error("build makes a SQLite site");
  await seedDemoIfEmpty(db, writeTransaction);
  const member = await queryRow<{ id: number }>("SELECT id FROM users ORDER BY id LIMIT 1");
  const other = await queryRow<{ id: number }>("SELECT id FROM users ORDER BY id DESC LIMIT 1");
  const actor = { id: member!.id };
  await createSession(actor.id, "Chrome on Android");
  await createSession(other!.id, "Firefox on Linux");
  await claimKey(actor.id, "key-1", "POST /api/posts");
  await recordAnswer(actor.id, "key-1", { status: 201, reply: { headers: [["content-type", "application/json"]], body: '{"id":1}' } });
  await setDataSaver(actor, true);
  const club = await createClub(
    actor,
    createClubSchema.parse({ name: "Ridge Runners", description: "A club that moves along", isPrivate: true, tags: ["Bow Hunting"] }),
  );
  // An upload attached to the post below (media with JSON variants), a rate-limit window and a cached preview.
  sqlite
    .prepare(
      `INSERT INTO media (owner_id, kind, storage_key, url, name, mime_type, size, width, height, variants)
       VALUES (?, 'image', 'move/a.jpg', '/media/move/a.jpg', 'a.jpg', 'image/jpeg', 1234, 800, 600, ?)`,
    )
    .run(actor.id, JSON.stringify([{ width: 400, height: 300, url: "/media/move/a.jpg?w=400", key: "k400", size: 99 }]));
  sqlite.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES ('login:203.0.113.9', 29000000, 3)").run();
  sqlite
    .prepare("INSERT INTO link_previews (url, data, fetched_at) VALUES ('https://example.org/a', ?, ?)")
    .run(JSON.stringify({ title: "Example", domain: "example.org" }), Date.now());
  const post = await createPost(
    actor,
    postInputSchema.parse({
      title: "Stalking whitetails along the ridges",
      content: "Three mornings hunting the wind on the north ridge.",
      type: "article",
      tags: ["BowHunting", "Rut"],
      uploadedFiles: ["/media/move/a.jpg"],
    }),
  );
  await createPost(
    actor,
    postInputSchema.parse({ title: "Club notes", content: "Only for the club.", clubId: club.id, tags: ["Bow Hunting"] }),
  );
  await likePost({ id: other!.id }, post.id);
  await addComment({ id: other!.id }, post.id, { content: "Which ridge?" });
  return { userId: actor.id, postId: post.id };
}

async function search(userId: number, queries: string[]) {
  const found: Record<string, number[]> = {};
  for (const q of queries) {
    const page = await listFeed({ id: userId }, { search: q, limit: 100 });
    found[q] = page.posts.map((p) => p.id);
  }
  return { engine: databaseEngine(), found };
}

async function write(userId: number) {
  const session = await createSession(userId, "Safari on iPhone");
  const post = await createPost({ id: userId }, postInputSchema.parse({ title: "After the move", content: "Written on PostgreSQL." }));
  return { engine: databaseEngine(), sessionId: session.id, postId: post.id };
}

try {
  const result =
    mode === "build"
      ? await build()
      : mode === "search"
        ? await search(Number(args[0]), args.slice(1))
        : mode === "write"
          ? await write(Number(args[0]))
          : (() => {
              throw new Error(`unknown mode ${mode}`);
            })();
  process.stdout.write(`${JSON.stringify({ ok: true, ...result })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: (error as Error).stack ?? String(error) })}\n`);
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
