/**
 * One process of writers for tests/integration/concurrent-writes.test.ts: its own connection to the
 * parent's database (DATABASE_PATH, or DATABASE_URL on PostgreSQL: a second app node), rate limits on. It prints "ready" once loaded, waits for a line
 * on stdin (sent to every process at once), then runs its writers until each has done `ops`
 * writes or `ms` have passed, and prints one JSON line of counts:
 * {"ok":n,"refused":{"404":n,"429":n},"failures":["<what would have been a 500>", ...]}.
 *
 * The writers interleave (an await between writes) and pick their targets from the newest posts, so
 * posts, comments, likes, unlikes and shares race each other and the deletes of their posts.
 *
 *   node --import tsx tests/integration/write-race.worker.ts <userId,userId,...> <ops> <ms>
 */
import { desc } from "drizzle-orm";
import { posts } from "#db/schema";
import { addComment } from "~/models/posts/comment.server";
import { createPost, deletePost, likePost, sharePost, unlikePost } from "~/models/posts/post.server";
import { db } from "~/utils/db.server";
import { setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { runWriter } from "#tests/fixtures/race-writer";

const [ids, ops, ms] = process.argv.slice(2);
const userIds = ids!.split(",").map(Number);
setRateLimitsEnabled(true);

const result = { ok: 0, refused: {} as Record<number, number>, failures: [] as string[] };

const recent = () => db.select({ id: posts.id, authorId: posts.authorId }).from(posts).orderBy(desc(posts.id)).limit(8);
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
const noPreview = async () => null;

async function write(userId: number, step: number) {
  const me = { id: userId };
  const target = pick(await recent());
  switch (step % 6) {
    case 0:
      return createPost(
        me,
        { title: `Race ${userId}/${step}`, content: "Written while others write.", type: "article" },
        { preview: noPreview },
      );
    case 1:
      return target && addComment(me, target.id, { content: `Comment ${step}` });
    case 2:
      return target && likePost(me, target.id);
    case 3:
      return target && sharePost(me, target.id);
    case 4:
      return target && unlikePost(me, target.id);
    default: {
      const mine = (await recent()).find((p) => p.authorId === userId);
      return mine && deletePost(me, mine.id);
    }
  }
}

async function writer(userId: number, deadline: number) {
  // Not `result.ok += await …`: that reads result.ok before the await, and the writers run at once.
  const ok = await runWriter(result, Number(ops), deadline, (i) => write(userId, userId + i));
  result.ok += ok;
}

process.stdout.write("ready\n");
async function race() {
  const deadline = Date.now() + Number(ms);
  await Promise.all(userIds.map((id) => writer(id, deadline)));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
process.stdin.once("data", () => void race());
