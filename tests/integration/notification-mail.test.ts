import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { notificationDigests, notifications, users, type NotificationKind } from "#db/schema";
import {
  digestQueue,
  excerpt,
  EXCERPT_CHARS,
  mailInstant,
  scheduleDigests,
  sendDueDigests,
  unsubscribeToken,
  UNSUBSCRIBE_LINK_INVALID,
  type MailRecipient,
} from "~/models/notifications/notification-mail.server";
import { markRead, notificationItems } from "~/models/notifications/notification.server";
import { blockMember } from "~/models/members/block.server";
import { reportTarget } from "~/models/moderation/report.server";
import { addComment } from "~/models/posts/comment.server";
import { setEmailMode, settingsRow, upsertSettings } from "~/models/notifications/notification-settings.server";
import { createPost } from "~/models/posts/post.server";
import * as unsubscribePage from "~/routes/unsubscribe.$token/route";
import { edgeRefusal, isTokenPost } from "~/server/http-edge.server";
import { loggedPath } from "~/server/request-log.server";
import { dataVersion, db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { backoffMs, LEASE_MS, MAX_ATTEMPTS } from "~/utils/jobs.server";
import { escapeHtml, setMailSettings } from "~/utils/mail.server";
import { parseMail, type ParsedMail } from "../fixtures/mail-parts";
import { startMailSink, type ReceivedMail } from "../fixtures/mail-sink";
import { call, createMember, makeRequest } from "../fixtures/members";
import { ageAccount } from "../fixtures/new-accounts";
import { addMember, makeClub } from "../fixtures/posts";

/**
 * Notification email (CONTRACT.md §7 "Email", issue 26) through a real SMTP conversation with the
 * local sink: an instant mail as a member reads it (text, HTML, the RFC 8058 headers), digests of
 * what is unread since the last one and nothing when there is nothing new, the unsubscribe link
 * signed out (its button and a mail client's one-click POST; forged links refused), and
 * `npm run digest`. Each line quotes what it is about, while the member may still read it (ux-3
 * U21); the wait before an instant mail is in instant-mail-delay.test.ts.
 */

const ORIGIN = "http://localhost:3000";
const FROM = "Whitetail Pulse <pulse@example.org>";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");

let sink: Awaited<ReturnType<typeof startMailSink>>;
const useSink = () => setMailSettings({ smtpUrl: sink.url, from: FROM, publicUrl: ORIGIN });

beforeAll(async () => {
  sink = await startMailSink();
  useSink();
});
afterAll(async () => {
  setMailSettings(null);
  await sink.close();
});
// Every test takes the mail it caused: what is left is mail nobody should have had.
afterEach(() => {
  const left = sink.received.splice(0);
  expect(left.map((m) => m.to)).toEqual([]);
});

type Member = Awaited<ReturnType<typeof createMember>>;
const recipientOf = (m: Member): MailRecipient => ({ id: m.id, email: m.email, username: m.username, displayName: m.displayName });

async function seed(userId: number, kind: NotificationKind, values: Partial<typeof notifications.$inferInsert> = {}): Promise<number> {
  const [row] = await db
    .insert(notifications)
    .values({ userId, kind, sentAt: new Date(), ...values })
    .returning({ id: notifications.id });
  return row!.id;
}
const followedBy = (userId: number, actor: Member, createdAt?: Date) => seed(userId, "follow", { actorId: actor.id, createdAt });
/** The notification a comment left its post's author (addComment writes it). */
async function commentNotice(authorId: number, commentId: number): Promise<number> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, authorId), eq(notifications.commentId, commentId), eq(notifications.kind, "comment")));
  return row!.id;
}
/** A member past NEW_ACCOUNT_HOURS, whose reports count toward auto-hide. */
async function established() {
  const member = await createMember();
  await ageAccount(member.id);
  return member;
}

/** The mails the sink holds now, by recipient (a run is over once its promise settles). */
function takeMails(): Map<string, ParsedMail[]> {
  const byTo = new Map<string, ParsedMail[]>();
  for (const mail of sink.received.splice(0)) {
    for (const to of mail.to) byTo.set(to, [...(byTo.get(to) ?? []), parseMail(mail.raw)]);
  }
  return byTo;
}
const unsubscribeUrl = (userId: number) => `${ORIGIN}/unsubscribe/${unsubscribeToken(userId)}`;
const emailOf = async (userId: number) => (await settingsRow(userId)).email;
const digestAtOf = async (userId: number) => (await settingsRow(userId)).digestAt;
/** The member's newest digest row. */
const digestRow = async (userId: number) =>
  (
    await db.select().from(notificationDigests).where(eq(notificationDigests.userId, userId)).orderBy(desc(notificationDigests.id)).limit(1)
  )[0];

describe("instant mail", () => {
  it("one notification: its sentence as the subject, plain text and phone-sized HTML, absolute links, one-click unsubscribe headers", async () => {
    const author = await createMember({ displayName: "Sam Tracker" });
    const commenter = await createMember({ displayName: "Alex <b>Rivers</b> & Co" });
    const post = await createPost(
      { id: author.id },
      { title: "Opening day <buck> & doe", content: "Sat the ridge all morning.", type: "article" },
    );
    const comment = await addComment(commenter, post.id, { content: 'Fresh <rubs> & "scrapes"\n\nalong the creek.' });
    const id = await commentNotice(author.id, comment.id);

    expect(await mailInstant(recipientOf(author), await notificationItems([id]))).toBe(true);
    const received: ReceivedMail = await sink.next();
    expect(received.to).toEqual([author.email]);
    const mail = parseMail(received.raw);
    const sentence = "Alex <b>Rivers</b> & Co commented on “Opening day <buck> & doe”";
    expect(mail.subject).toBe(sentence);
    expect(mail.header("from")).toContain("pulse@example.org");
    expect(mail.header("list-unsubscribe")).toBe(`<${unsubscribeUrl(author.id)}>`);
    expect(mail.header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.header("auto-submitted")).toBe("auto-generated");

    // The comment itself, on one line, so the member reads it without opening the site (ux-3 U21).
    const quote = '“Fresh <rubs> & "scrapes" along the creek.”';
    const link = `${ORIGIN}/post/${post.id}#comment-${comment.id}`;
    expect(mail.text).toContain(`Hi Sam Tracker,\n\n${sentence}\n\n${quote}\n\nRead the comment: ${link}\n`);
    expect(mail.text).toContain(`${ORIGIN}/settings?tab=notifications`);
    expect(mail.text).toContain(`Stop notification emails:\n${unsubscribeUrl(author.id)}`);

    // Member-typed text is escaped; one column for a phone; the links are absolute and big.
    expect(mail.html).toContain(escapeHtml(sentence));
    expect(mail.html).toContain(`${escapeHtml(quote)}</div>`);
    expect(mail.html).not.toContain("<b>Rivers</b>");
    expect(mail.html).not.toContain("<buck>");
    expect(mail.html).not.toContain("<rubs>");
    expect(mail.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(mail.html).toContain("max-width:560px");
    // The line looks like the link it is: underlined and coloured (inline styles, as mail needs).
    expect(mail.html).toContain(`<a href="${escapeHtml(link)}" style="display:block;color:#92400e;text-decoration:underline;`);
    expect(mail.html).toContain(`<a href="${unsubscribeUrl(author.id)}"`);
    expect(mail.html).not.toMatch(/href="\//);
  });

  it("a long sentence is cut in the subject, whole in the body", async () => {
    const author = await createMember();
    const title = `Twelve hours on stand ${"and still waiting ".repeat(8)}for the buck`;
    const post = await createPost({ id: author.id }, { title, content: "Cold and long.", type: "article" });
    const id = await seed(author.id, "comment", { actorId: (await createMember({ displayName: "Lee" })).id, postId: post.id });
    await mailInstant(recipientOf(author), await notificationItems([id]));
    const mail = parseMail((await sink.next()).raw);
    expect([...mail.subject]).toHaveLength(150);
    expect(mail.subject).toMatch(/^Lee commented on “Twelve hours on stand and still waiting .*…$/);
    expect(mail.text).toContain(`Lee commented on “${title}”`);

    // With more lines, the first is cut so that "and 1 more" fits.
    const other = await followedBy(author.id, await createMember({ displayName: "Flo" }));
    await mailInstant(recipientOf(author), await notificationItems([id, other]));
    const two = parseMail((await sink.next()).raw);
    expect([...two.subject]).toHaveLength(150);
    expect(two.subject).toMatch(/^Lee commented on “Twelve hours on stand and still waiting .*… and 1 more$/);
  });

  it("quotes a long comment up to 300 characters, cut after a whole word", async () => {
    const author = await createMember();
    const post = await createPost({ id: author.id }, { title: "Rub lines", content: "Where are the rub lines?", type: "article" });
    const words = Array.from({ length: 90 }, (_, i) => `word${i}`).join(" ");
    const comment = await addComment(await createMember({ displayName: "Long Talker" }), post.id, { content: words });
    await mailInstant(recipientOf(author), await notificationItems([await commentNotice(author.id, comment.id)]));
    const mail = parseMail((await sink.next()).raw);
    const quote = /^“(.*)”$/m.exec(mail.text)![1]!;
    expect(quote).toMatch(/^word0 word1 word2 .* word\d+…$/);
    expect([...quote].length).toBeLessThanOrEqual(EXCERPT_CHARS + 1);
    expect([...quote].length).toBeGreaterThan(EXCERPT_CHARS - 10);
    expect(words.startsWith(`${quote.slice(0, -1)} `)).toBe(true);
    expect(mail.html).toContain(`“${quote}”`);
  });

  it("a club post and a mention in a post quote the post's opening; a mention in a comment quotes the comment", async () => {
    const reader = await createMember({ displayName: "Rae" });
    const writer = await createMember({ displayName: "Wes" });
    const clubId = await makeClub(writer.id, { name: "Ridge Club" });
    await addMember(clubId, reader.id);
    const clubPost = await createPost(writer, {
      title: "Doe day",
      content: "Antlerless tags are in.\nPick yours up Friday.",
      type: "article",
      clubId,
    });
    const mentioning = await createPost(writer, { title: "Who is out?", content: "Rae is on the south stand.", type: "article" });
    const comment = await addComment(writer, mentioning.id, { content: "Bring the grunt call, Rae." });
    const ids = [
      await seed(reader.id, "club_post", { actorId: writer.id, postId: clubPost.id, clubId }),
      await seed(reader.id, "mention", { actorId: writer.id, postId: mentioning.id }),
      await seed(reader.id, "mention", { actorId: writer.id, postId: mentioning.id, commentId: comment.id }),
      await followedBy(reader.id, writer),
    ];
    await mailInstant(recipientOf(reader), await notificationItems(ids));
    const mail = parseMail((await sink.next()).raw);
    expect(mail.subject).toBe("Wes posted “Doe day” in Ridge Club and 3 more");
    expect(mail.text).toContain(
      `• Wes posted “Doe day” in Ridge Club\n  “Antlerless tags are in. Pick yours up Friday.”\n  ${ORIGIN}/post/${clubPost.id}\n`,
    );
    expect(mail.text).toContain(
      `• Wes mentioned you in “Who is out?”\n  “Rae is on the south stand.”\n  ${ORIGIN}/post/${mentioning.id}\n`,
    );
    expect(mail.text).toContain(
      `• Wes mentioned you in a comment on “Who is out?”\n  “Bring the grunt call, Rae.”\n  ${ORIGIN}/post/${mentioning.id}#comment-${comment.id}\n`,
    );
    // A follow has nothing to quote.
    expect(mail.text).toContain(`• Wes started following you\n  ${ORIGIN}/profile/${writer.username}\n`);
  });

  it("leaves out lines read meanwhile, about a comment hidden after reports, or across a block; nothing left, no mail", async () => {
    const author = await createMember();
    const post = await createPost({ id: author.id }, { title: "Creek crossing", content: "Tracks everywhere.", type: "article" });
    const [spammer, friend, rude, kind] = [
      await createMember({ displayName: "Spam Seller" }),
      await createMember({ displayName: "Friend" }),
      await createMember({ displayName: "Rude One" }),
      await createMember({ displayName: "Kind One" }),
    ];
    const spam = await addComment(spammer, post.id, { content: "Cheap scopes, click here" });
    const read = await addComment(friend, post.id, { content: "Read on the site already" });
    const blocked = await addComment(rude, post.id, { content: "Something rude" });
    const fine = await addComment(kind, post.id, { content: "Great crossing" });
    const ids = [spam, read, blocked, fine].map((c) => c.id);
    const notices = await Promise.all(ids.map((commentId) => commentNotice(author.id, commentId)));
    // Hidden after reports; read on the site.
    for (let i = 0; i < env.AUTO_HIDE_REPORTS; i++)
      await reportTarget(await established(), { targetType: "comment", targetId: spam.id, reason: "spam" });
    await markRead(author, [notices[1]!]);
    // What the delivery read a moment ago; the block comes in between.
    const items = await notificationItems(notices);
    await blockMember(author, rude.username);

    expect(await mailInstant(recipientOf(author), items)).toBe(true);
    const mail = parseMail((await sink.next()).raw);
    expect(mail.subject).toBe("Kind One commented on “Creek crossing”");
    expect(mail.text).toContain("“Great crossing”");
    for (const gone of ["Spam Seller", "Cheap scopes", "Friend", "Read on the site", "Rude One", "Something rude"]) {
      expect(mail.text).not.toContain(gone);
      expect(mail.html).not.toContain(gone);
    }
    // Without the one line left: no mail at all.
    expect(await mailInstant(recipientOf(author), items.slice(0, 3))).toBe(false);
    expect(sink.received).toEqual([]);
  });

  it("several notifications at once are one mail listing each with its page", async () => {
    const member = await createMember({ displayName: "Jo" });
    const [a, b] = [await createMember({ displayName: "Ann Doe" }), await createMember({ displayName: "Ben Buck" })];
    const ids = [await followedBy(member.id, a), await followedBy(member.id, b)];

    expect(await mailInstant(recipientOf(member), await notificationItems(ids))).toBe(true);
    const mail = parseMail((await sink.next()).raw);
    // The first line names it, and says how many more.
    expect(mail.subject).toBe("Ann Doe started following you and 1 more");
    expect(mail.text).toContain(`• Ann Doe started following you\n  ${ORIGIN}/profile/${a.username}\n`);
    expect(mail.text).toContain(`• Ben Buck started following you\n  ${ORIGIN}/profile/${b.username}\n`);
    expect(mail.text).toContain(`See your notifications: ${ORIGIN}/notifications`);
    for (const m of [a, b])
      expect(mail.html).toContain(
        `<a href="${ORIGIN}/profile/${m.username}" style="display:block;color:#92400e;text-decoration:underline;`,
      );
    expect(sink.received).toEqual([]);
  });

  it("sends nothing to a suspended member, with nothing to say, or where SMTP is not configured", async () => {
    const member = await createMember();
    const actor = await createMember();
    const items = await notificationItems([await followedBy(member.id, actor)]);
    expect(await mailInstant(recipientOf(member), [])).toBe(false);

    setMailSettings(null);
    expect(await mailInstant(recipientOf(member), items)).toBe(false);
    useSink();

    await db.update(users).set({ suspendedAt: new Date(), suspendedUntil: null }).where(eq(users.id, member.id));
    expect(await mailInstant(recipientOf(member), items)).toBe(false);
    // A suspension that has ended no longer holds the mail back.
    await db
      .update(users)
      .set({ suspendedUntil: new Date(Date.now() - 1000) })
      .where(eq(users.id, member.id));
    expect(await mailInstant(recipientOf(member), items)).toBe(true);
    expect((await sink.next()).to).toEqual([member.email]);
  });
});

describe("a line's quote", () => {
  it("keeps a short text whole on one line; cuts a long one after its last whole word, without hanging punctuation", () => {
    expect(excerpt("Fresh rubs\n\n  along the creek. ", 300)).toBe("Fresh rubs along the creek.");
    expect(excerpt("one two three four", 9)).toBe("one two…");
    expect(excerpt("abcd efgh ijkl", 9)).toBe("abcd efgh…");
    expect(excerpt("Wait, then. Go on", 11)).toBe("Wait, then…");
    // One word longer than half of it is cut where it must be; characters are code points.
    expect(excerpt(`a ${"x".repeat(20)}`, 10)).toBe(`a ${"x".repeat(8)}…`);
    expect(excerpt("🦌".repeat(5), 3)).toBe("🦌🦌🦌…");
  });
});

describe("digests", () => {
  // What earlier tests left unread would be in everyone's first digest: start from none.
  beforeAll(async () => {
    await db.update(notifications).set({ readAt: new Date() });
  });

  it("one mail of what is unread since the last digest; then nothing until something new arrives", async () => {
    const reader = await createMember({ displayName: "Rita" }); // no settings row: daily
    const [a, b, c] = [
      await createMember({ displayName: "Ann" }),
      await createMember({ displayName: "Ben" }),
      await createMember({ displayName: "Cy" }),
    ];
    const start = Date.now();
    await followedBy(reader.id, c, new Date(start - 3 * DAY)); // before the first digest's day
    await seed(reader.id, "follow", { actorId: c.id, readAt: new Date() }); // read on the site
    await followedBy(reader.id, a, new Date(start - HOUR));
    await followedBy(reader.id, b, new Date(start - 1000));

    const t0 = new Date(start);
    expect(await sendDueDigests(t0)).toEqual({ due: 1, sent: 1, empty: 0, failed: 0, skipped: 0 });
    const first = takeMails().get(reader.email)!;
    expect(first).toHaveLength(1);
    expect(first[0]!.subject).toBe("Ben started following you and 1 more");
    expect(first[0]!.header("list-unsubscribe")).toBe(`<${unsubscribeUrl(reader.id)}>`);
    // There was no last digest to speak of: the first names its period.
    expect(first[0]!.text).toContain("Still unread from the past day (2 new notifications):");
    expect(first[0]!.text).not.toContain("last digest");
    expect(first[0]!.text).toContain(`• Ben started following you\n  ${ORIGIN}/profile/${b.username}`);
    expect(first[0]!.text).toContain(`• Ann started following you\n  ${ORIGIN}/profile/${a.username}`);
    expect(first[0]!.text).not.toContain("Cy started following you");
    expect(first[0]!.text).toContain("at most once a day");
    expect((await digestAtOf(reader.id))?.getTime()).toBe(t0.getTime());

    // The same moment again, and a day later with only those two still unread: nothing is new.
    expect(await sendDueDigests(t0)).toMatchObject({ due: 0, sent: 0 });
    expect(await sendDueDigests(new Date(start + DAY))).toMatchObject({ due: 0, sent: 0 });
    expect(sink.received).toEqual([]);

    // Something new: not before the day is over, then only it.
    const post = await createPost({ id: reader.id }, { title: "Rattling in fog", content: "Two bucks came in.", type: "article" });
    await seed(reader.id, "comment", { actorId: c.id, postId: post.id, createdAt: new Date(start + HOUR) });
    expect(await sendDueDigests(new Date(start + 2 * HOUR))).toMatchObject({ sent: 0 });
    expect(await sendDueDigests(new Date(start + DAY))).toEqual({ due: 1, sent: 1, empty: 0, failed: 0, skipped: 0 });
    const second = takeMails().get(reader.email)!;
    expect(second).toHaveLength(1);
    expect(second[0]!.subject).toBe("Cy commented on “Rattling in fog”");
    expect(second[0]!.text).toContain("Still unread since your last digest (1 new notification):");
    expect(second[0]!.text).toContain(`• Cy commented on “Rattling in fog”\n  ${ORIGIN}/post/${post.id}`);
    expect(second[0]!.text).not.toContain("Ann started following you");
    expect((await digestAtOf(reader.id))?.getTime()).toBe(start + DAY);
  });

  it("quotes each comment and leaves out one hidden before the digest goes; a weekly member's first names the week", async () => {
    const member = await createMember();
    await upsertSettings(db, member.id, { email: "weekly" });
    const post = await createPost({ id: member.id }, { title: "Late season", content: "Cold and still.", type: "article" });
    const kept = await addComment(await createMember({ displayName: "Kim" }), post.id, { content: "Sit the food plot at dusk." });
    const hidden = await addComment(await createMember({ displayName: "Spam Seller" }), post.id, { content: "Cheap scopes" });
    for (let i = 0; i < env.AUTO_HIDE_REPORTS; i++)
      await reportTarget(await established(), { targetType: "comment", targetId: hidden.id, reason: "spam" });
    // The moment after the comments were written, read now: on a loaded machine the lines above take
    // more than a second, and a moment taken before them came before the comments (no digest was due).
    expect(await sendDueDigests(new Date(Date.now() + 1000))).toMatchObject({ sent: 1 });
    const [mail] = takeMails().get(member.email)!;
    expect(mail!.subject).toBe("Kim commented on “Late season”");
    expect(mail!.text).toContain("Still unread from the past week (1 new notification):");
    expect(mail!.text).toContain(
      `• Kim commented on “Late season”\n  “Sit the food plot at dusk.”\n  ${ORIGIN}/post/${post.id}#comment-${kept.id}\n`,
    );
    expect(mail!.text).not.toContain("Spam Seller");
    expect(mail!.html).not.toContain("Cheap scopes");
  });

  it("weekly members wait a week; members with email off or instant, and suspended members, get no digest", async () => {
    const now = Date.now();
    const actor = await createMember();
    const weekly = await createMember();
    await upsertSettings(db, weekly.id, { email: "weekly", digestAt: new Date(now - 2 * DAY) });
    const off = await createMember();
    await setEmailMode(off.id, "off");
    const instant = await createMember();
    await setEmailMode(instant.id, "instant");
    const suspended = await createMember();
    await db
      .update(users)
      .set({ suspendedAt: new Date(now - DAY) })
      .where(eq(users.id, suspended.id));
    for (const m of [weekly, off, instant, suspended]) await followedBy(m.id, actor, new Date(now - 1000));

    await sendDueDigests(new Date(now));
    await sendDueDigests(new Date(now + 4 * DAY));
    expect([...takeMails().keys()]).toEqual([]);
    await sendDueDigests(new Date(now + 5 * DAY)); // a week after the last one
    expect([...takeMails().keys()]).toEqual([weekly.email]);
  });

  it("a member who never had a digest is not mailed about what is older than the period", async () => {
    const now = Date.now();
    const member = await createMember();
    await followedBy(member.id, await createMember(), new Date(now - 2 * DAY));
    expect(await sendDueDigests(new Date(now))).toMatchObject({ sent: 0 });
    expect(await digestAtOf(member.id)).toBeNull();
  });

  it("a refused digest waits its backoff and goes once, with what it was queued for; one refused ten times is given up and counted", async () => {
    const now = Date.now();
    const member = await createMember();
    await followedBy(member.id, await createMember({ displayName: "Gus" }), new Date(now - 1000));
    setMailSettings({ smtpUrl: "smtp://127.0.0.1:1", from: FROM, publicUrl: ORIGIN });
    expect(await sendDueDigests(new Date(now))).toMatchObject({ due: 1, sent: 0, failed: 1 });
    // The digest is a row now: the member's period has moved on, and the digest waits for its retry.
    expect((await digestAtOf(member.id))?.getTime()).toBe(now);
    expect(await digestRow(member.id)).toMatchObject({ attempts: 1, sentAt: null, failedAt: null, claimedUntil: null });
    useSink();
    expect(await sendDueDigests(new Date(now + 1000))).toMatchObject({ due: 0, sent: 0, failed: 0 });
    // Something newer belongs to the next digest, not this one.
    await followedBy(member.id, await createMember({ displayName: "Hal" }), new Date(now + 2000));
    expect(await sendDueDigests(new Date(now + backoffMs(1)))).toMatchObject({ due: 0, sent: 1, failed: 0 });
    const [mail, ...more] = takeMails().get(member.email)!;
    expect(more).toEqual([]);
    expect(mail!.text).toContain("• Gus started following you");
    expect(mail!.text).not.toContain("Hal");
    expect(mail!.header("message-id")).toBe(`<digest.${member.id}.${now}@localhost>`);
    expect(await digestRow(member.id)).toMatchObject({ attempts: 1, sentAt: new Date(now + backoffMs(1)) });

    // A mail server that never takes it: ten tries over hours, then given up, counted, never again.
    const other = await createMember();
    await followedBy(other.id, await createMember(), new Date(now - 1000));
    setMailSettings({ smtpUrl: "smtp://127.0.0.1:1", from: FROM, publicUrl: ORIGIN });
    let at = now;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      expect(await sendDueDigests(new Date(at))).toMatchObject({ failed: 1 });
      at += backoffMs(i + 1);
    }
    expect(await digestRow(other.id)).toMatchObject({
      attempts: MAX_ATTEMPTS,
      sentAt: null,
      failedAt: new Date(at - backoffMs(MAX_ATTEMPTS)),
    });
    expect((await digestQueue(new Date(at))).failed).toBeGreaterThanOrEqual(1);
    useSink();
    expect(await sendDueDigests(new Date(at + DAY / 2))).toMatchObject({ sent: 0, failed: 0 });
  });

  it("a digest whose sender died after the mail went is sent again once its lease ends, as the same message", async () => {
    const now = Date.now();
    const member = await createMember();
    await followedBy(member.id, await createMember({ displayName: "Ivy" }), new Date(now - 1000));
    expect(await sendDueDigests(new Date(now))).toMatchObject({ sent: 1 });
    const [first] = takeMails().get(member.email)!;
    // What a crash between the send and its mark leaves: the row unsent, leased by the dead process.
    await db
      .update(notificationDigests)
      .set({ sentAt: null, claimedUntil: new Date(now + LEASE_MS) })
      .where(eq(notificationDigests.userId, member.id));
    expect(await sendDueDigests(new Date(now + LEASE_MS - 1000))).toMatchObject({ sent: 0 });
    expect(await sendDueDigests(new Date(now + LEASE_MS + 1000))).toMatchObject({ sent: 1 });
    const [again] = takeMails().get(member.email)!;
    expect(again!.header("message-id")).toBe(first!.header("message-id"));
    expect(again!.text).toBe(first!.text);
  });

  it("queued digests of members who turned digests off meanwhile are settled without a mail", async () => {
    const now = Date.now();
    const member = await createMember();
    await followedBy(member.id, await createMember(), new Date(now - 1000));
    setMailSettings({ smtpUrl: "smtp://127.0.0.1:1", from: FROM, publicUrl: ORIGIN });
    expect(await sendDueDigests(new Date(now))).toMatchObject({ failed: 1 });
    useSink();
    await setEmailMode(member.id, "off");
    expect(await sendDueDigests(new Date(now + backoffMs(1)))).toMatchObject({ sent: 0, empty: 1 });
    expect(await digestRow(member.id)).toMatchObject({ sentAt: new Date(now + backoffMs(1)), failedAt: null });
  });

  it("queuing and sending digests leave the data version, and so every visitor page's ETag, alone", async () => {
    const now = Date.now();
    const member = await createMember();
    await upsertSettings(db, member.id, { email: "daily" });
    await followedBy(member.id, await createMember(), new Date(now - 1000));
    const version = await dataVersion();
    expect(await sendDueDigests(new Date(now))).toMatchObject({ sent: 1 });
    expect(await dataVersion()).toBe(version);
    takeMails();
  });

  it("two runs at the same moment (two servers) send one digest", async () => {
    const now = Date.now();
    const member = await createMember();
    await followedBy(member.id, await createMember(), new Date(now - 1000));
    const [one, two] = await Promise.all([sendDueDigests(new Date(now)), sendDueDigests(new Date(now))]);
    expect(one.sent + two.sent).toBe(1);
    expect(takeMails().get(member.email)).toHaveLength(1);
  });

  it("the server's own schedule sends the due digests at start-up, only where SMTP is configured", async () => {
    const member = await createMember();
    await followedBy(member.id, await createMember({ displayName: "Eve" }), new Date(Date.now() - 1000));
    setMailSettings(null);
    scheduleDigests({ everyMs: 3_600_000 })();
    expect(await digestAtOf(member.id)).toBeNull();
    useSink();
    const stop = scheduleDigests({ everyMs: 3_600_000 });
    try {
      const mail = await sink.next();
      expect(mail.to).toEqual([member.email]);
      expect(parseMail(mail.raw).text).toContain("• Eve started following you");
    } finally {
      stop();
    }
  });

  it("lists twenty and says how many more", async () => {
    const now = Date.now();
    const member = await createMember();
    const actor = await createMember({ displayName: "Many Follows" });
    for (let i = 0; i < 23; i++) await followedBy(member.id, actor, new Date(now - 1000 - i));
    await sendDueDigests(new Date(now));
    const [mail] = takeMails().get(member.email)!;
    expect(mail!.subject).toBe("Many Follows started following you and 22 more");
    expect(mail!.text).toContain("Still unread from the past day (23 new notifications):");
    expect(mail!.text.match(/• Many Follows started following you/g)).toHaveLength(20);
    expect(mail!.text).toContain("…and 3 more");
  });
});

describe("the unsubscribe link", () => {
  const page = (token: string) => call(unsubscribePage.loader, makeRequest(`/unsubscribe/${token}`), { token });
  const press = (token: string) => call(unsubscribePage.action, makeRequest(`/unsubscribe/${token}`, { form: {} }), { token });
  /** What a mail provider sends for RFC 8058: no cookie, its own Origin (or none), the one-click body. */
  const oneClick = (token: string, origin?: string) =>
    call(
      unsubscribePage.action,
      new Request(`${ORIGIN}/unsubscribe/${token}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...(origin ? { Origin: origin } : {}) },
        body: "List-Unsubscribe=One-Click",
      }),
      { token },
    );

  it("GET asks and changes nothing; the button turns notification email off and the page says so", async () => {
    const member = await createMember();
    await mailInstant(recipientOf(member), await notificationItems([await followedBy(member.id, await createMember())]));
    const link = /^<(.+)>$/.exec(parseMail((await sink.next()).raw).header("list-unsubscribe")!)![1]!;
    const token = new URL(link).pathname.split("/").pop()!;

    for (let i = 0; i < 2; i++) {
      const res = await page(token);
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
      expect(await res.json()).toMatchObject({ username: member.username, emailOn: true });
    }
    expect(await emailOf(member.id)).toBe("daily");

    const done = await press(token);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/unsubscribe/${token}?was=daily`);
    expect(done.headers.get("Set-Cookie")).toMatch(/__toast=/);
    expect(await emailOf(member.id)).toBe("off");
    expect(await (await page(token)).json()).toMatchObject({ username: member.username, emailOn: false });
    // Pressing again (a second tab) is harmless.
    expect((await press(token)).status).toBe(302);
    expect(await emailOf(member.id)).toBe("off");
  });

  it("a mail client's one-click POST (RFC 8058) works without cookies, from another origin or none", async () => {
    for (const origin of ["https://mail.example.net", undefined]) {
      const member = await createMember();
      await setEmailMode(member.id, "instant");
      const res = await oneClick(unsubscribeToken(member.id), origin);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ unsubscribed: member.username });
      expect(await emailOf(member.id)).toBe("off");
    }
    // The HTTP edge lets it through; other cross-site posts stay refused.
    const probe = (url: string) => ({ method: "POST", url, headers: { host: "localhost:3000", origin: "https://mail.example.net" } });
    expect(edgeRefusal(probe(`/unsubscribe/${unsubscribeToken(1)}`))).toBeNull();
    expect(edgeRefusal(probe("/settings?tab=notifications"))?.status).toBe(403);
    expect(edgeRefusal(probe("/unsubscribe/x/y"))?.status).toBe(403);
    // …and the app's request goes without its Origin, which Remix's own cross-site check would
    // answer with a 500 (app/server/http-edge.server.test.ts sends one through the server).
    expect(isTokenPost(probe(`/unsubscribe/${unsubscribeToken(1)}`))).toBe(true);
    expect(isTokenPost(probe("/settings?tab=notifications"))).toBe(false);
    // The token stays out of the request log.
    expect(loggedPath(`/unsubscribe/${unsubscribeToken(1)}`)).toBe("/unsubscribe/:token");
  });

  it("a forged, cut-short or malformed token is a 404 page with a clear message and changes nothing", async () => {
    const member = await createMember();
    const other = await createMember();
    const good = unsubscribeToken(member.id);
    const tag = good.split("-").slice(1).join("-");
    const forged = [
      `${other.id}-${tag}`, // someone else's id with this member's signature
      `${member.id}-${tag.slice(0, -1)}${tag.endsWith("A") ? "B" : "A"}`,
      good.slice(0, -4),
      `${member.id}`,
      "not-a-token",
      `999999999-${tag}`,
      "%E0%A4%A",
    ];
    for (const token of forged) {
      for (const res of [await page(token), await press(token), await oneClick(token)]) {
        expect(res.status, token).toBe(404);
        expect(await res.json()).toEqual({ message: UNSUBSCRIBE_LINK_INVALID });
      }
    }
    // A member who no longer exists: the same page.
    const gone = await createMember();
    const goneToken = unsubscribeToken(gone.id);
    await db.delete(users).where(eq(users.id, gone.id));
    expect((await page(goneToken)).status).toBe(404);
    expect(await emailOf(member.id)).toBe("daily");
    expect(await emailOf(other.id)).toBe("daily");
  });
});

// Each run starts a process with tsx: seconds on a busy machine.
describe("npm run digest", { timeout: 240_000 }, () => {
  const digest = (env: Record<string, string | undefined>) =>
    run(process.execPath, ["--import", "tsx", "scripts/digest.ts"], { cwd: root, env: { ...process.env, ...env } }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it("sends the digests that are due once and prints the counts", async () => {
    const member = await createMember();
    await followedBy(member.id, await createMember({ displayName: "Dee" }), new Date(Date.now() - 1000));
    const out = await digest({ SMTP_URL: sink.url, MAIL_FROM: FROM, PUBLIC_URL: ORIGIN });
    expect(out.stderr).toBe("");
    expect(out.stdout).toMatch(/^Digests: 1 sent, 0 refused/m);
    const mails = takeMails();
    expect([...mails.keys()]).toEqual([member.email]);
    expect(mails.get(member.email)![0]!.text).toContain("• Dee started following you");
    // Run again: nothing new.
    expect((await digest({ SMTP_URL: sink.url, MAIL_FROM: FROM, PUBLIC_URL: ORIGIN })).stdout).toMatch(/^Digests: 0 sent, 0 refused/m);
  });

  it("says so and exits 1 where mail is not configured", async () => {
    const out = await digest({ SMTP_URL: "", MAIL_FROM: "", PUBLIC_URL: "" });
    expect("code" in out ? out.code : 0).toBe(1);
    expect(out.stderr).toMatch(/Mail is not configured/);
  });
});
