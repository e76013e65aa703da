import { inArray, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { comments, notifications, users } from "#db/schema";
import { createPost } from "~/models/posts/post.server";
import { databaseEngine, db } from "~/utils/db.server";
import { raceProcesses } from "#tests/fixtures/processes";

/**
 * A 2xx means stored (CONTRACT.md §11, issue 38): two app nodes on one database, 16 writers
 * commenting on (which notifies the post's author), liking and unliking other members' posts, with
 * each node's delivery schedule running as in a running site. Before, on PostgreSQL about one in five
 * acknowledged comments was never stored: the delivery run nudged from inside a comment's transaction
 * went on using that transaction's connection after COMMIT, inside the next request's transaction,
 * and a query of its that failed there rolled that request's COMMIT back without a word.
 */

type Result = { comments: number[]; likes: number; refused: Record<string, number>; failures: string[] };

const NODES = 2;
const WRITERS_PER_NODE = 8;
const OPS_PER_WRITER = 30;
const TIME_LIMIT_MS = 60_000;

describe("notifying writes on two nodes", () => {
  it("every acknowledged comment is stored, told to its post's author and delivered; no write fails with a database error", async () => {
    const members = await db
      .insert(users)
      .values(
        Array.from({ length: NODES * WRITERS_PER_NODE + 4 }, (_, i) => ({
          username: `notifier${i}`,
          displayName: `Notifier ${i}`,
          email: `notifier${i}@example.com`,
          passwordHash: "unused",
        })),
      )
      .returning({ id: users.id });
    const authors = members.slice(0, 4);
    const writers = members.slice(4);
    const posts: number[] = [];
    for (const author of authors) {
      posts.push(
        (
          await createPost(
            author,
            { title: "Rub line", content: "Something to comment on.", type: "article" },
            { preview: async () => null },
          )
        ).id,
      );
    }
    const groups = Array.from({ length: NODES }, (_, n) => writers.filter((_, i) => i % NODES === n).map((m) => m.id));

    const results = await raceProcesses<Result>(
      "tests/integration/notify-race.worker.ts",
      groups.map((ids) => [ids.join(","), posts.join(","), String(OPS_PER_WRITER), String(TIME_LIMIT_MS)]),
    );

    const failures = results.flatMap((r) => r.failures);
    const refused = results.flatMap((r) => Object.keys(r.refused));
    const acknowledged = results.flatMap((r) => r.comments);
    const stored = await db.select({ id: comments.id }).from(comments).where(inArray(comments.id, acknowledged));
    const told = await db
      .select({ commentId: notifications.commentId })
      .from(notifications)
      .where(inArray(notifications.commentId, acknowledged));
    const owed = await db.select({ id: notifications.id }).from(notifications).where(isNull(notifications.sentAt));
    const figures = {
      acknowledged: acknowledged.length,
      lost: acknowledged.length - stored.length,
      untold: acknowledged.length - new Set(told.map((t) => t.commentId)).size,
      databaseErrors: failures.length,
      likes: results.reduce((n, r) => n + r.likes, 0),
      owed: owed.length,
    };
    console.log(`notifying writes on ${databaseEngine()}: ${JSON.stringify(figures)}`);

    expect(failures.slice(0, 5), `${failures.length} writes failed with a database error`).toEqual([]);
    expect(refused).toEqual([]);
    expect(figures.acknowledged).toBe(NODES * WRITERS_PER_NODE * (OPS_PER_WRITER / 3));
    expect(figures.lost, `of ${figures.acknowledged} acknowledged comments, lost`).toBe(0);
    expect(figures.untold, "acknowledged comments not told to their post's author").toBe(0);
    // Each node's delivery ran to the end: nothing is left owed.
    expect(figures.owed).toBe(0);
  }, 120_000);
});
