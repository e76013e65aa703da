import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { notifications, users } from "#db/schema";
import { addComment } from "~/models/posts/comment.server";
import { deliverPending, drainDeliveries, scheduleDeliveries } from "~/models/notifications/notification-delivery.server";
import { updateNotificationSettings } from "~/models/notifications/notification-settings.server";
import { createPost } from "~/models/posts/post.server";
import { afterCommit, databaseEngine, dataVersion, db, first, queryRow, writeTransaction } from "~/utils/db.server";
import { setMailSettings } from "~/utils/mail.server";
import { startMailSink } from "#tests/fixtures/mail-sink";
import { createMember } from "#tests/fixtures/members";
import { postInput } from "#tests/fixtures/posts";

/**
 * What a write sets off runs after it commits, outside its transaction (CONTRACT.md §11, issue 38).
 * Before, notify() nudged the delivery run from inside the comment's transaction, and the run kept
 * that transaction's async context: it read and mailed rows that were not committed (and might never
 * be), and on PostgreSQL went on using the transaction's pooled connection after COMMIT, inside
 * whichever request's transaction took that connection next.
 */

vi.hoisted(() => {
  // Mailed by the run the commit starts: the wait before an instant mail has its own file
  // (instant-mail-delay.test.ts).
  process.env.INSTANT_MAIL_DELAY_SECONDS = "0";
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits while a transaction is open for what a leak would have done by now: at most `ms`. */
async function waitFor(done: () => boolean, ms: number) {
  for (const deadline = Date.now() + ms; Date.now() < deadline && !done();) await sleep(20);
}

describe("afterCommit", () => {
  it("runs after COMMIT, outside the transaction, and sees what it committed", async () => {
    const member = await createMember();
    let seen: string | undefined;
    let ranInside = true;
    await writeTransaction(async (tx) => {
      await tx.update(users).set({ bio: "committed first" }).where(eq(users.id, member.id));
      afterCommit(() => {
        // What starts here runs outside the transaction after its own awaits too (Node's
        // AsyncLocalStorage.exit would bring those back in the ended transaction's context).
        void (async () => {
          ranInside = false;
          // As a delivery or fan-out run does: a transaction of its own, then more queries.
          await writeTransaction(async (tx) => tx.update(users).set({ location: "after" }).where(eq(users.id, member.id)));
          await sleep(5);
          seen = first(await db.select({ bio: users.bio }).from(users).where(eq(users.id, member.id)))?.bio ?? undefined;
        })().catch((error: unknown) => (seen = String(error)));
      });
      // Not yet.
      expect(ranInside).toBe(true);
    });
    await waitFor(() => seen !== undefined, 2_000);
    expect(seen).toBe("committed first");
  });

  it("never runs for a transaction or a savepoint that rolls back", async () => {
    const ran: string[] = [];
    await expect(
      writeTransaction(async () => {
        afterCommit(() => ran.push("rolled back"));
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    await writeTransaction(async () => {
      afterCommit(() => ran.push("outer"));
      await writeTransaction(async () => {
        afterCommit(() => ran.push("inner kept"));
      });
      await writeTransaction(async () => {
        afterCommit(() => ran.push("inner dropped"));
        throw new Error("savepoint refused");
      }).catch(() => undefined);
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(["outer", "inner kept"]);
  });

  it("refuses a query made from the context of a transaction that has ended", async () => {
    const member = await createMember();
    let late: Promise<unknown> | undefined;
    await writeTransaction(async () => {
      // Work set off inside without waiting for the commit (as the old nudge did): it runs later.
      late = sleep(30).then(() => db.select().from(users).where(eq(users.id, member.id)));
      late.catch(() => undefined);
    });
    // drizzle wraps the engine's error in its own ("Failed query: …").
    const error = await late!.then(
      () => null,
      (e: unknown) => e as Error & { cause?: Error },
    );
    expect(`${error?.message} ${error?.cause?.message}`).toMatch(/transaction that has ended/);
  });
});

describe("the delivery a comment sets off", () => {
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  let stopDeliveries: () => void;
  beforeAll(async () => {
    sink = await startMailSink();
    setMailSettings({ smtpUrl: sink.url, from: "Pulse <pulse@example.org>", publicUrl: "http://localhost:3000" });
    // The server's own schedule: notify() nudges the delivery run (the path a request takes).
    stopDeliveries = scheduleDeliveries(3_600_000);
  });
  afterAll(async () => {
    stopDeliveries();
    setMailSettings(null);
    await sink.close();
  });

  async function authorOnInstantMail() {
    const author = await createMember({ displayName: "Sam Tracker" });
    await updateNotificationSettings(author, { inApp: {}, email: "instant", push: false, clubPosts: [] });
    const post = await createPost(author, postInput({ title: `Creek bottom ${Date.now()}` }));
    return { author, post, mailsTo: () => sink.received.filter((m) => m.to.includes(author.email)) };
  }

  it("leaves the data version, and so every page's validator and the visitor cache, as it was", async () => {
    const { post, mailsTo } = await authorOnInstantMail();
    const actor = await createMember();
    stopDeliveries();
    await addComment(actor, post.id, { content: "Two does at the food plot" });
    const version = await dataVersion();
    await deliverPending();
    expect(mailsTo()).toHaveLength(1);
    expect(await dataVersion()).toBe(version);
    stopDeliveries = scheduleDeliveries(3_600_000);
  });

  it("sends nothing for a comment whose transaction rolls back", async () => {
    const { post, mailsTo } = await authorOnInstantMail();
    const actor = await createMember();
    let commentId = 0;
    await expect(
      writeTransaction(async () => {
        commentId = (await addComment(actor, post.id, { content: "Saw a spike at the crossing" })).id;
        // Time for a delivery run started from inside this transaction to mail the row it sees.
        await waitFor(() => mailsTo().length > 0, 1_500);
        throw new Error("rolled back after all");
      }),
    ).rejects.toThrow("rolled back after all");
    await drainDeliveries();
    await sleep(100);
    expect(mailsTo()).toHaveLength(0);
    expect(await db.select().from(notifications).where(eq(notifications.commentId, commentId))).toHaveLength(0);
  });

  it("mails a committed comment once, from a delivery run of its own that sees the committed row", async () => {
    const { author, post, mailsTo } = await authorOnInstantMail();
    const actor = await createMember();
    let commentTx: number | undefined;
    const comment = await writeTransaction(async () => {
      const made = await addComment(actor, post.id, { content: "Fresh scrape line on the ridge" });
      if (databaseEngine() === "postgres") commentTx = Number((await queryRow<{ id: number }>("SELECT txid_current() AS id"))!.id);
      // A run started from inside would claim and mail the row before this transaction commits.
      await waitFor(() => mailsTo().length > 0, 1_500);
      expect(mailsTo(), "nothing is mailed before the comment commits").toHaveLength(0);
      return made;
    });
    await waitFor(() => mailsTo().length > 0, 5_000);
    await drainDeliveries();
    expect(mailsTo()).toHaveLength(1);
    const row = first(await db.select().from(notifications).where(eq(notifications.commentId, comment.id)));
    expect(row?.userId).toBe(author.id);
    expect(row?.sentAt).not.toBeNull();
    if (commentTx !== undefined) {
      // The claim that marked it sent is a transaction of its own (PostgreSQL's xmin: the last writer).
      const marked = first(
        await db
          .select({ xmin: sql<string>`xmin::text` })
          .from(notifications)
          .where(eq(notifications.id, row!.id)),
      );
      expect(Number(marked!.xmin)).not.toBe(commentTx);
    }
  });
});

vi.setConfig({ testTimeout: 30_000 });
