/**
 * One app node of writers for tests/integration/notifying-writes.test.ts: its own connection to the
 * parent's database (DATABASE_PATH, or DATABASE_URL on PostgreSQL), the server's own delivery
 * schedule running (notify() nudges it, as in a running site), rate limits off so that every write
 * is meant to succeed. It prints "ready" once loaded, waits for a line on stdin, then each writer
 * comments on, likes and unlikes other members' posts `ops` times (or until `ms` have passed), waits
 * for the delivery runs to finish, and prints one JSON line:
 * {"comments":[id, …],"likes":n,"refused":{"404":n},"failures":["<what would have been a 500>", …]}.
 *
 *   node --import tsx tests/integration/notify-race.worker.ts <userId,…> <postId,…> <ops> <ms>
 */
import { addComment } from "~/models/posts/comment.server";
import { drainDeliveries, scheduleDeliveries } from "~/models/notifications/notification-delivery.server";
import { likePost, unlikePost } from "~/models/posts/post.server";
import { setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { runWriter } from "#tests/fixtures/race-writer";

const [ids, postIds, ops, ms] = process.argv.slice(2);
const userIds = ids!.split(",").map(Number);
const targets = postIds!.split(",").map(Number);
setRateLimitsEnabled(false);
const stopDeliveries = scheduleDeliveries(60_000);

const result = { comments: [] as number[], likes: 0, refused: {} as Record<number, number>, failures: [] as string[] };
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

async function write(userId: number, step: number) {
  const me = { id: userId };
  const post = pick(targets);
  switch (step % 3) {
    case 0:
      result.comments.push((await addComment(me, post, { content: `Tracks at the creek, ${userId}/${step}` })).id);
      return;
    case 1:
      await likePost(me, post);
      result.likes += 1;
      return;
    default:
      await unlikePost(me, post);
  }
}

async function writer(userId: number, deadline: number) {
  await runWriter(result, Number(ops), deadline, (step) => write(userId, step));
}

process.stdout.write("ready\n");
async function race() {
  const deadline = Date.now() + Number(ms);
  await Promise.all(userIds.map((id) => writer(id, deadline)));
  stopDeliveries();
  await drainDeliveries().catch((error: unknown) => result.failures.push(`delivery: ${String(error)}`));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
process.stdin.once("data", () => void race());
