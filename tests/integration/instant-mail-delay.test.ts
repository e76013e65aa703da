import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { notifications } from "#db/schema";
import { removeContent } from "~/models/moderation/moderation-removal.server";
import { reportTarget } from "~/models/moderation/report.server";
import { deliverPending, deliveryQueue, INSTANT_MAIL_DELAY_MS } from "~/models/notifications/notification-delivery.server";
import { updateNotificationSettings } from "~/models/notifications/notification-settings.server";
import { markRead } from "~/models/notifications/notification.server";
import { createPushAgent, subscribe } from "~/models/notifications/push.server";
import { addComment } from "~/models/posts/comment.server";
import { createPost } from "~/models/posts/post.server";
import { dataVersion, db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { setMailSettings } from "~/utils/mail.server";
import { parseMail } from "#tests/fixtures/mail-parts";
import { startMailSink } from "#tests/fixtures/mail-sink";
import { createMember } from "#tests/fixtures/members";
import { createStaff } from "#tests/fixtures/moderation";
import { ageAccount } from "#tests/fixtures/new-accounts";
import { postInput } from "#tests/fixtures/posts";
import { browserKeys, startPushService } from "#tests/fixtures/push-service";

/**
 * ux-3 U21 (ADR 0085): an instant mail waits INSTANT_MAIL_DELAY_SECONDS (2 minutes here, the
 * default) after its notification, so that a removal, an auto-hide after reports, or reading it on
 * the site in that time stops it. The wait is kept in the row (`nextAttemptAt`), so a process that
 * restarts keeps it; the push does not wait. The clock is driven (`deliverPending`'s `now`).
 */
vi.hoisted(() => {
  process.env.PUSH_ALLOW_PRIVATE = "1";
  process.env.INSTANT_MAIL_DELAY_SECONDS = "120";
});

const ORIGIN = "http://localhost:3000";
const DELAY = 120_000;
/** A clock `ms` ahead of the real one. */
const later = (ms: number) => () => new Date(Date.now() + ms);
let sink: Awaited<ReturnType<typeof startMailSink>>;
let service: Awaited<ReturnType<typeof startPushService>>;

beforeAll(async () => {
  sink = await startMailSink();
  service = await startPushService();
  setMailSettings({ smtpUrl: sink.url, from: "Pulse <pulse@example.org>", publicUrl: ORIGIN });
});
afterAll(async () => {
  setMailSettings(null);
  await sink.close();
  await service.close();
});
// Each test starts with nothing owed: what an earlier one left is settled far ahead of the clock.
beforeEach(async () => {
  while ((await deliverPending(200, {}, later(24 * 3_600_000))) > 0);
  sink.received.splice(0);
  service.received.splice(0);
});

type Member = Awaited<ReturnType<typeof createMember>>;
async function authorOnInstantMail(push = false) {
  const author = await createMember({ displayName: "Sam Tracker" });
  await updateNotificationSettings(author, { inApp: {}, email: "instant", push, clubPosts: [] });
  const post = await createPost(author, postInput({ title: "Reading rub lines" }));
  return { author, post, mailsTo: () => sink.received.filter((m) => m.to.includes(author.email)) };
}
const rowsOf = (member: Member) => db.select().from(notifications).where(eq(notifications.userId, member.id));

describe("the wait before an instant mail", () => {
  it("is INSTANT_MAIL_DELAY_SECONDS, two minutes unless set", () => {
    expect(INSTANT_MAIL_DELAY_MS).toBe(DELAY);
  });

  it("the push goes at once; the mail waits in the row and then goes with the comment in it, once", async () => {
    const { author, post, mailsTo } = await authorOnInstantMail(true);
    const browser = browserKeys();
    await subscribe(author, { endpoint: `https://localhost:${service.port}/push/v1/${author.id}`, keys: browser.keys }, null);
    const dispatcher = createPushAgent({ ca: service.ca });
    const comment = await addComment(await createMember({ displayName: "Hank Mercer" }), post.id, {
      content: "Fresh rubs along the creek.",
    });
    const queued = await deliveryQueue();
    const version = await dataVersion();

    expect(await deliverPending(200, { dispatcher })).toBe(1);
    expect(service.received.filter((p) => p.path === `/push/v1/${author.id}`)).toHaveLength(1);
    expect(mailsTo()).toHaveLength(0);
    // The wait is in the database: given back, unleased, due at the notification's time plus the delay.
    const [row] = await rowsOf(author);
    expect(row).toMatchObject({ sentAt: null, mailedAt: null, claimedUntil: null, attempts: 0 });
    expect(row!.pushedAt).not.toBeNull();
    expect(row!.nextAttemptAt!.getTime()).toBe(row!.createdAt.getTime() + DELAY);
    const waiting = await deliveryQueue();
    expect(waiting.waiting).toBe(queued.waiting + 1);
    expect(waiting.retrying).toBe(queued.retrying);
    expect(await dataVersion()).toBe(version);

    // Before its time no run takes it (a restarted process no more than this one).
    expect(await deliverPending(200, { dispatcher }, later(DELAY - 5_000))).toBe(0);
    expect(mailsTo()).toHaveLength(0);

    expect(await deliverPending(200, { dispatcher }, later(DELAY + 1_000))).toBe(1);
    const mails = mailsTo();
    expect(mails).toHaveLength(1);
    const mail = parseMail(mails[0]!.raw);
    expect(mail.subject).toBe("Hank Mercer commented on “Reading rub lines”");
    expect(mail.text).toContain(`“Fresh rubs along the creek.”\n\nRead the comment: ${ORIGIN}/post/${post.id}#comment-${comment.id}`);
    // The push was not repeated; the row is settled.
    expect(service.received.filter((p) => p.path === `/push/v1/${author.id}`)).toHaveLength(1);
    expect((await rowsOf(author))[0]!.sentAt).not.toBeNull();
    expect(await deliverPending(200, { dispatcher }, later(2 * DELAY))).toBe(0);
  });

  it("a comment removed by a moderator within the wait is never mailed", async () => {
    const { post, mailsTo } = await authorOnInstantMail();
    const spam = await addComment(await createMember({ displayName: "Spam Seller" }), post.id, { content: "Cheap scopes, click here" });
    await deliverPending();
    await removeContent(await createStaff("moderator"), { type: "comment", id: spam.id }, "Spam");
    while ((await deliverPending(200, {}, later(DELAY + 1_000))) > 0);
    expect(mailsTo()).toHaveLength(0);
  });

  it("a comment hidden after reports within the wait is never mailed; its row is settled", async () => {
    const { author, post, mailsTo } = await authorOnInstantMail();
    const spam = await addComment(await createMember({ displayName: "Spam Seller" }), post.id, { content: "Cheap scopes, click here" });
    await deliverPending();
    for (let i = 0; i < env.AUTO_HIDE_REPORTS; i++) {
      const reporter = await createMember();
      await ageAccount(reporter.id);
      await reportTarget(reporter, { targetType: "comment", targetId: spam.id, reason: "spam" });
    }
    await deliverPending(200, {}, later(DELAY + 1_000));
    expect(mailsTo()).toHaveLength(0);
    expect((await rowsOf(author)).find((r) => r.commentId === spam.id)!.sentAt).not.toBeNull();
  });

  it("what was read on the site within the wait is left out; the rest goes as one mail", async () => {
    const { author, post, mailsTo } = await authorOnInstantMail();
    await addComment(await createMember({ displayName: "Ann Doe" }), post.id, { content: "Seen it on the site" });
    await addComment(await createMember({ displayName: "Ben Buck" }), post.id, { content: "Not yet read" });
    await addComment(await createMember({ displayName: "Cy Field" }), post.id, { content: "Not read either" });
    await deliverPending();
    const [first] = (await rowsOf(author)).sort((a, b) => a.id - b.id);
    await markRead(author, [first!.id]);
    await deliverPending(200, {}, later(DELAY + 1_000));
    const mails = mailsTo();
    expect(mails).toHaveLength(1);
    const mail = parseMail(mails[0]!.raw);
    expect(mail.subject).toBe("Ben Buck commented on “Reading rub lines” and 1 more");
    expect(mail.text).toContain("“Not read either”");
    expect(mail.text).not.toContain("Ann Doe");
    expect(mail.text).not.toContain("Seen it on the site");

    // All of it read in the wait: no mail at all.
    sink.received.splice(0);
    await addComment(await createMember(), post.id, { content: "Read at once" });
    await deliverPending();
    await markRead(author);
    await deliverPending(200, {}, later(DELAY + 1_000));
    expect(mailsTo()).toHaveLength(0);
  });

  it("a member who leaves instant mail within the wait gets no instant mail (their digest has it)", async () => {
    const { author, post, mailsTo } = await authorOnInstantMail();
    await addComment(await createMember(), post.id, { content: "Changed my mind" });
    await deliverPending();
    await updateNotificationSettings(author, { inApp: {}, email: "daily", push: false, clubPosts: [] });
    await deliverPending(200, {}, later(DELAY + 1_000));
    expect(mailsTo()).toHaveLength(0);
    expect((await rowsOf(author))[0]!.sentAt).not.toBeNull();
  });
});
