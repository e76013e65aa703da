import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { notifications } from "#db/schema";
import { addComment } from "~/models/posts/comment.server";
import { deliverPending, deliveryQueue } from "~/models/notifications/notification-delivery.server";
import { backoffMs, MAX_ATTEMPTS } from "~/utils/jobs.server";
import { settingsRow, updateNotificationSettings } from "~/models/notifications/notification-settings.server";
import { createPost } from "~/models/posts/post.server";
import { createPushAgent, subscribe } from "~/models/notifications/push.server";
import { db } from "~/utils/db.server";
import { setMailSettings } from "~/utils/mail.server";
import { browserKeys, decryptPush, startPushService } from "#tests/fixtures/push-service";
import { parseMail } from "#tests/fixtures/mail-parts";
import { startMailSink } from "#tests/fixtures/mail-sink";
import { createMember } from "#tests/fixtures/members";
import { postInput } from "#tests/fixtures/posts";

/**
 * The instant half of notifications (CONTRACT.md §7, notification-delivery.server.ts): a new row is
 * mailed to a member on "instant" and pushed to one with push on, once, then marked sent; a refused
 * mail gives its rows back; daily members get nothing until their digest.
 */
vi.hoisted(() => {
  process.env.PUSH_ALLOW_PRIVATE = "1";
  // Mailed as soon as a run takes them: the wait before an instant mail has its own file
  // (instant-mail-delay.test.ts).
  process.env.INSTANT_MAIL_DELAY_SECONDS = "0";
});

const ORIGIN = "http://localhost:3000";
/** A clock `ms` ahead of the real one, for the delivery's backoff and leases. */
const later = (ms: number) => () => new Date(Date.now() + ms);
let sink: Awaited<ReturnType<typeof startMailSink>>;
let service: Awaited<ReturnType<typeof startPushService>>;
const useSink = () => setMailSettings({ smtpUrl: sink.url, from: "Pulse <pulse@example.org>", publicUrl: ORIGIN });

beforeAll(async () => {
  sink = await startMailSink();
  service = await startPushService();
  useSink();
});
afterAll(async () => {
  setMailSettings(null);
  await sink.close();
  await service.close();
});

describe("delivering new notifications", () => {
  it("mails a member on instant and pushes to their device, once", async () => {
    const author = await createMember({ displayName: "Sam Tracker" });
    const actor = await createMember({ displayName: "Alex Rivers" });
    await updateNotificationSettings(author, { inApp: {}, email: "instant", push: true, clubPosts: [] });
    const browser = browserKeys();
    await subscribe(author, { endpoint: `https://localhost:${service.port}/push/v1/${author.id}`, keys: browser.keys }, null);
    const post = await createPost(author, postInput({ title: "North ridge" }));
    sink.received.splice(0);
    service.received.splice(0);

    const comment = await addComment(actor, post.id, { content: "Nice one" });
    const dispatcher = createPushAgent({ ca: service.ca });
    expect(await deliverPending(200, { dispatcher })).toBeGreaterThanOrEqual(1);

    const mails = sink.received.splice(0).filter((m) => m.to.includes(author.email));
    expect(mails).toHaveLength(1);
    const mail = parseMail(mails[0]!.raw);
    expect(mail.subject).toBe("Alex Rivers commented on “North ridge”");
    expect(mail.text).toContain(`${ORIGIN}/post/${post.id}#comment-${comment.id}`);
    const pushes = service.received.splice(0).filter((p) => p.path === `/push/v1/${author.id}`);
    expect(pushes).toHaveLength(1);
    expect(JSON.parse(decryptPush(pushes[0]!.body, browser.ecdh, browser.authSecret))).toMatchObject({
      body: "Alex Rivers commented on “North ridge”",
      url: `/post/${post.id}#comment-${comment.id}`,
    });

    // Told once: a second run finds nothing owed to them.
    await deliverPending(200, { dispatcher });
    expect(sink.received.filter((m) => m.to.includes(author.email))).toHaveLength(0);
    expect(service.received).toHaveLength(0);
  });

  it("leaves a daily member to their digest, and gives a refused mail's rows back", async () => {
    const daily = await createMember();
    const instant = await createMember();
    const actor = await createMember();
    await updateNotificationSettings(instant, { inApp: {}, email: "instant", push: false, clubPosts: [] });
    const dailyPost = await createPost(daily, postInput());
    const instantPost = await createPost(instant, postInput());
    await addComment(actor, dailyPost.id, { content: "hi" });
    // The mail server is gone: the instant member's row is owed again, the daily member's is done.
    setMailSettings({ smtpUrl: "smtp://127.0.0.1:9", from: "Pulse <pulse@example.org>", publicUrl: ORIGIN });
    await addComment(actor, instantPost.id, { content: "hi" });
    await deliverPending();
    const rows = await db.select().from(notifications).where(eq(notifications.kind, "comment"));
    expect(rows.find((r) => r.userId === daily.id)!.sentAt).not.toBeNull();
    expect(rows.find((r) => r.userId === instant.id)!.sentAt).toBeNull();
    useSink();
    // Tried again once its backoff has passed (a minute after the first refusal).
    await deliverPending(200, {}, later(2 * 60_000));
    expect(sink.received.splice(0).map((m) => m.to)).toEqual([[instant.email]]);
  });

  it("an SMTP outage delays the mail with backoff and never repeats the push; one mail when it accepts", async () => {
    const author = await createMember();
    const actor = await createMember({ displayName: "Outage Tester" });
    await updateNotificationSettings(author, { inApp: {}, email: "instant", push: true, clubPosts: [] });
    const browser = browserKeys();
    await subscribe(author, { endpoint: `https://localhost:${service.port}/push/v1/${author.id}`, keys: browser.keys }, null);
    const post = await createPost(author, postInput({ title: "Outage" }));
    const dispatcher = createPushAgent({ ca: service.ca });
    await deliverPending(200, { dispatcher });
    sink.received.splice(0);
    service.received.splice(0);

    setMailSettings({ smtpUrl: "smtp://127.0.0.1:9", from: "Pulse <pulse@example.org>", publicUrl: ORIGIN });
    await addComment(actor, post.id, { content: "During the outage" });
    const row = async () => (await db.select().from(notifications).where(eq(notifications.userId, author.id)))[0]!;
    const pushesToAuthor = () => service.received.filter((p) => p.path === `/push/v1/${author.id}`).length;
    // Refused for three runs, each once its wait is over: one push in all, the attempts counted.
    for (const minutes of [0, 2, 5]) await deliverPending(200, { dispatcher }, later(minutes * 60_000));
    expect(pushesToAuthor()).toBe(1);
    expect(await row()).toMatchObject({ attempts: 3, mailedAt: null, sentAt: null, failedAt: null });
    expect((await row()).pushedAt).not.toBeNull();
    // Not yet due: a run now tries nothing.
    expect((await row()).nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 5 * 60_000);
    expect((await deliveryQueue(later(5 * 60_000)())).retrying).toBeGreaterThanOrEqual(1);

    useSink();
    await deliverPending(200, { dispatcher }, later(6 * 60_000));
    expect(sink.received.splice(0).filter((m) => m.to.includes(author.email))).toHaveLength(0);
    await deliverPending(200, { dispatcher }, later(20 * 60_000));
    const mails = sink.received.splice(0).filter((m) => m.to.includes(author.email));
    expect(mails).toHaveLength(1);
    expect(parseMail(mails[0]!.raw).subject).toBe("Outage Tester commented on “Outage”");
    expect(pushesToAuthor()).toBe(1);
    expect((await row()).sentAt).not.toBeNull();
    await deliverPending(200, { dispatcher }, later(60 * 60_000));
    expect(sink.received.filter((m) => m.to.includes(author.email))).toHaveLength(0);
  });

  it("a mail refused past its attempts is given up, counted, and never tried again", async () => {
    const author = await createMember();
    const actor = await createMember();
    await updateNotificationSettings(author, { inApp: {}, email: "instant", push: false, clubPosts: [] });
    const post = await createPost(author, postInput());
    setMailSettings({ smtpUrl: "smtp://127.0.0.1:9", from: "Pulse <pulse@example.org>", publicUrl: ORIGIN });
    const before = (await deliveryQueue()).failed;
    await addComment(actor, post.id, { content: "Never mailed" });
    let at = 0;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await deliverPending(200, {}, later(at));
      at += backoffMs(i + 1) + 1000;
    }
    const [row] = await db.select().from(notifications).where(eq(notifications.userId, author.id));
    expect(row).toMatchObject({ attempts: MAX_ATTEMPTS, mailedAt: null });
    expect(row!.failedAt).not.toBeNull();
    expect(row!.sentAt).not.toBeNull();
    expect((await deliveryQueue()).failed).toBe(before + 1);
    useSink();
    await deliverPending(200, {}, later(at + 24 * 3600_000));
    expect(sink.received.filter((m) => m.to.includes(author.email))).toHaveLength(0);
  });

  it("starts a member's digests afresh when they leave instant mails", async () => {
    const member = await createMember();
    await updateNotificationSettings(member, { inApp: {}, email: "instant", push: false, clubPosts: [] });
    expect((await settingsRow(member.id)).digestAt).toBeNull();
    await updateNotificationSettings(member, { inApp: {}, email: "daily", push: false, clubPosts: [] });
    expect((await settingsRow(member.id)).digestAt).not.toBeNull();
  });
});
