import { createHmac, timingSafeEqual } from "node:crypto";
import { and, asc, eq, exists, gt, isNotNull, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import {
  EMAIL_MODES,
  notificationDigests,
  notifications,
  notificationSettings,
  users,
  type EmailMode,
  type NotificationKind,
} from "#db/schema";
import { APP_NAME } from "~/utils/brand";
import { countWhere, db, first, queryRows, writeTransaction } from "~/utils/db.server";
import { sessionSecret } from "~/utils/env.server";
import { badRequest, notFound } from "~/utils/errors";
import { afterFailedTry, runEvery } from "~/utils/jobs.server";
import { logger, logServerError } from "~/utils/logger.server";
import { escapeHtml, mailSettings, sendMail, type Mail } from "~/utils/mail.server";
import { clubReadableSql, visiblePostSql } from "~/models/access.server";
import { notBlockedEitherWaySql } from "~/models/members/block.server";
import { leaseDue } from "./job-lease.server";
import { unreadForDigest, type NotificationItem } from "./notification.server";
import { setEmailMode, settingsRow } from "./notification-settings.server";
import { notSuspendedAt } from "~/models/members/user.server";

/**
 * Notification email (CONTRACT.md §7 "Email", issue 26): an instant mail per delivery (the delivery
 * worker calls `mailInstant` for members whose email is "instant"), and daily or weekly digests of
 * what is still unread (`sendDueDigests`, run by the server every 15 minutes and by `npm run digest`).
 * Only where SMTP is configured (`mailSettings()`); suspended members get nothing.
 *
 * Each line carries what it is about (ux-3 U21, ADR 0085): a comment's or a mention's text, a club
 * post's opening, cut at a word (`withContent`), and only while the member may still read it: a
 * hidden or deleted comment, a post they may no longer see, or either side of a block drops the
 * line, looked at again as the mail goes. Instant mails wait INSTANT_MAIL_DELAY_SECONDS first
 * (notification-delivery.server.ts), so a removal or an auto-hide in that time stops them.
 *
 * Every mail carries a one-click unsubscribe: `/unsubscribe/{token}`, where the token is the member's
 * id and an HMAC of it under the session secret (no row to keep; it works signed out), and the
 * `List-Unsubscribe` / `List-Unsubscribe-Post` headers of RFC 8058 so a mail client's own
 * "Unsubscribe" button turns the mail off with one POST.
 */

export type MailRecipient = { id: number; email: string; username: string; displayName: string };
type DigestMode = Extract<EmailMode, "daily" | "weekly">;
const isDigestMode = (mode: EmailMode): mode is DigestMode => mode === "daily" || mode === "weekly";

const HOUR_MS = 3_600_000;
const PERIOD_MS: Record<DigestMode, number> = { daily: 24 * HOUR_MS, weekly: 7 * 24 * HOUR_MS };
/**
 * A digest is due this much before its full period is over, so a timer that fires at the same hour
 * every day (a few seconds early or late) or the server's 15-minute schedule never skips a day.
 */
const DUE_SLACK_MS = HOUR_MS;
/** Items listed in one digest; the rest are "and N more" with a link to /notifications. */
const DIGEST_SHOWN = 20;
const DIGEST_FETCHED = 50;
const SETTINGS_PATH = "/settings?tab=notifications";

export const UNSUBSCRIBE_LINK_INVALID =
  "This unsubscribe link doesn't work. It may have been copied incompletely. You can turn notification emails off in Settings › Notifications.";

// ---------------------------------------------------------------------------------------------
// Unsubscribe tokens

const TOKEN_PURPOSE = "notification-email-unsubscribe";
const TAG_LENGTH = 32;
const TOKEN_SHAPE = new RegExp(`^([1-9][0-9]{0,14})-([A-Za-z0-9_-]{${TAG_LENGTH}})$`);

function tagFor(userId: number): string {
  return createHmac("sha256", sessionSecret).update(`${TOKEN_PURPOSE}:${userId}`).digest("base64url").slice(0, TAG_LENGTH);
}

/** The member's unsubscribe token: their id and a signature only this site can make. */
export function unsubscribeToken(userId: number): string {
  return `${userId}-${tagFor(userId)}`;
}

/** The member id a token was made for, or null for anything forged, cut short or malformed. */
export function memberOfUnsubscribeToken(token: string): number | null {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  if (!Number.isSafeInteger(userId)) return null;
  const expected = Buffer.from(tagFor(userId));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}

/** Who an unsubscribe link is for, and whether their notification mail is on (404 for a bad link). */
/** The member a link is for; 404 for anything forged or cut short, or a member who is gone. */
async function memberOfLink(token: string): Promise<{ userId: number; username: string }> {
  const userId = memberOfUnsubscribeToken(token);
  const user = userId === null ? undefined : first(await db.select({ username: users.username }).from(users).where(eq(users.id, userId)));
  if (userId === null || !user) throw notFound(UNSUBSCRIBE_LINK_INVALID);
  return { userId, username: user.username };
}

export async function unsubscribeTarget(token: string): Promise<{ username: string; emailOn: boolean }> {
  const { userId, username } = await memberOfLink(token);
  const row = await settingsRow(userId);
  return { username, emailOn: row.email !== "off" };
}

/**
 * The link's member gets no more notification mail (404 for a bad link). Repeating it is harmless.
 * `was` is how often mail came before, for the page's "Turn them back on" (off if it already was).
 */
export async function unsubscribeWithToken(token: string): Promise<{ username: string; was: EmailMode }> {
  const { userId, username } = await memberOfLink(token);
  const was = (await settingsRow(userId)).email;
  await setEmailMode(userId, "off");
  return { username, was };
}

export const RESUBSCRIBE_CHOICE_MISSING = "Choose how often emails come: instant, a daily digest or a weekly digest.";

/**
 * The undo of the link (ux-3 U25): notification mail on again, as often as the member chooses, from
 * the same signed link, signed out. The token already allows the mail choice to change; mail only
 * ever goes to the member's own address, whose every mail carries the link again.
 */
export async function resubscribeWithToken(token: string, email: unknown): Promise<{ username: string; email: EmailMode }> {
  const { userId, username } = await memberOfLink(token);
  const mode = EMAIL_MODES.find((m) => m !== "off" && m === email);
  if (!mode) throw badRequest(RESUBSCRIBE_CHOICE_MISSING);
  await setEmailMode(userId, mode);
  return { username, email: mode };
}

// ---------------------------------------------------------------------------------------------
// Sending

/**
 * One mail for notifications that just happened (several → one mail listing them), each line with
 * its content. Returns false, sending nothing, when mail is not configured, the member is
 * suspended, or nothing is left to say: lines read on the site meanwhile, or about something the
 * member may no longer read (`withContent`), are dropped. Throws when the mail server refuses (the
 * caller decides whether to try again).
 */
export async function mailInstant(recipient: MailRecipient, items: NotificationItem[]): Promise<boolean> {
  const settings = mailSettings();
  if (!settings || items.length === 0) return false;
  const row = first(
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, recipient.id), notSuspendedAt(Date.now()))),
  );
  if (!row) return false;
  const lines = await withContent(
    recipient.id,
    items.filter((item) => !item.read),
  );
  if (lines.length === 0) return false;
  await sendMail({
    ...instantMail(recipient, lines, settings.publicUrl),
    messageId: instantMessageId(recipient, lines, settings.publicUrl),
  });
  return true;
}

// ---------------------------------------------------------------------------------------------
// What each line is about

/** A mail's line: the notification and, for a comment, a mention or a club post, the start of its text. */
export type MailItem = NotificationItem & { excerpt?: string | null };

/** Characters of a comment's or a post's text a line quotes (cut at a word). */
export const EXCERPT_CHARS = 300;

/**
 * `text` on one line: whole when it has at most `max` characters (code points); otherwise its first
 * `max` characters cut back to the last whole word (a word longer than half of them is cut where it
 * must be), without the space or punctuation left hanging, and an ellipsis.
 */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const flat = oneLine(text);
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const head = chars.slice(0, max).join("");
  // The cut falls between two words, or inside one, which is then left out.
  const wordStart = /\s/.test(chars[max]!) ? head.length : head.search(/\s+\S*$/);
  const kept = wordStart >= head.length / 2 ? head.slice(0, wordStart) : head;
  return `${kept.replace(/[\s,;:.!?\-–—]+$/u, "")}…`;
}

/** What a line quotes: the comment (a comment, a mention in one), or the post (a mention in it, a club post). */
function quoteSource(item: NotificationItem): { comment: number } | { post: number } | null {
  if ((item.kind === "comment" || item.kind === "mention") && item.commentId) return { comment: item.commentId };
  if ((item.kind === "mention" || item.kind === "club_post") && !item.commentId && item.post) return { post: item.post.id };
  return null;
}

type TextRow = { id: number; content: string };

/**
 * `items` that `userId` may still read, as mail lines with the text they are about. The item's
 * post was checked as the item was read (`notificationItems`, `unreadForDigest`: not hidden from
 * them, in a club they may read); here, as the mail goes: a comment must still be there and not
 * hidden (removed, or hidden after reports), and neither the member nor the text's author may have
 * blocked the other. A line whose text fails is dropped, not sent without it.
 */
export async function withContent(userId: number, items: NotificationItem[]): Promise<MailItem[]> {
  const sources = items.map(quoteSource);
  const commentIds = sources.flatMap((source) => (source && "comment" in source ? [source.comment] : []));
  const postIds = sources.flatMap((source) => (source && "post" in source ? [source.post] : []));
  // Ids are our own integers, written into the SQL; the member is a parameter.
  const list = (ids: number[]) => [...new Set(ids.filter((id) => Number.isSafeInteger(id)))].join(", ");
  const comments = commentIds.length
    ? await queryRows<TextRow>(
        `SELECT cm.id AS id, cm.content AS content FROM comments cm
          WHERE cm.id IN (${list(commentIds)}) AND cm.hidden_at IS NULL AND ${notBlockedEitherWaySql("@viewer", "cm.author_id")}`,
        { viewer: userId },
      )
    : [];
  const posts = postIds.length
    ? await queryRows<TextRow>(
        `SELECT p.id AS id, p.content AS content FROM posts p
          WHERE p.id IN (${list(postIds)}) AND ${visiblePostSql("p", "@viewer")}
            AND (p.club_id IS NULL OR ${clubReadableSql("p.club_id", "@viewer")})
            AND ${notBlockedEitherWaySql("@viewer", "p.author_id")}`,
        { viewer: userId },
      )
    : [];
  const commentText = new Map(comments.map((row) => [Number(row.id), row.content]));
  const postText = new Map(posts.map((row) => [Number(row.id), row.content]));
  return items.flatMap((item, i): MailItem[] => {
    const source = sources[i];
    if (!source) return [item];
    const text = "comment" in source ? commentText.get(source.comment) : postText.get(source.post);
    if (text === undefined) return [];
    const quote = excerpt(text);
    return [{ ...item, excerpt: quote || null }];
  });
}

/**
 * The same notifications to the same member are the same message, however often a crash makes the
 * delivery send it: mail servers and clients that honour Message-ID show it once.
 */
export function instantMessageId(recipient: { id: number }, items: Array<{ id: number }>, publicUrl: string): string {
  const ids = items.map((i) => i.id).sort((a, b) => a - b);
  return messageIdOf(`notifications.${recipient.id}.${ids[0]}-${ids[ids.length - 1]}.${ids.length}`, publicUrl);
}

function messageIdOf(local: string, publicUrl: string): string {
  const host = URL.canParse(publicUrl) ? new URL(publicUrl).hostname : "whitetail-pulse.invalid";
  return `<${local}@${host}>`;
}

export type DigestCounts = {
  /** Members whose digest fell due this run (each now has a queued digest row). */
  due: number;
  sent: number;
  /** Settled without a mail: nothing left to list once looked at closely (read meanwhile, no longer theirs to read), or the member turned digests off or was suspended meanwhile. */
  empty: number;
  /** Refused by the mail server this run: tried again after a backoff, or given up after MAX_ATTEMPTS. */
  failed: number;
  /** Taken by another process at the same moment. */
  skipped: number;
};

/** Sent (and settled) digest rows are kept this long, for `npm run jobs` and an operator's questions. */
export const KEEP_DIGESTS_MS = 30 * 24 * HOUR_MS;

/**
 * Send every digest that is due, as jobs kept in rows (CONTRACT.md §7 "Email", §11; ADR 0072):
 * 1. **Queue.** Members with email "daily" or "weekly" (no settings row: daily) whose last digest
 *    went at least a day or a week ago (less an hour's slack), who are not suspended, and who have an
 *    unread notification newer than their last digest (a member who never had one: newer than a
 *    day or a week ago) get a `notification_digests` row for `since`..`now`, in the transaction that
 *    moves their `digestAt` to `now` only if nobody moved it meanwhile (two servers queue it once).
 * 2. **Send.** Rows that are due are leased, mailed with what is still unread and readable from
 *    their period, and marked sent; a refused mail waits its backoff and is given up (`failedAt`,
 *    counted) after MAX_ATTEMPTS. A crash between a send and its mark sends the same Message-ID
 *    again once the lease ends; nothing owed is lost.
 * Members are taken in batches of `batchSize`, at most `maxMails` per run (the next run goes on).
 */
export async function sendDueDigests(
  now: Date = new Date(),
  { batchSize = 100, maxMails = 2_000 }: { batchSize?: number; maxMails?: number } = {},
): Promise<DigestCounts> {
  const counts: DigestCounts = { due: 0, sent: 0, empty: 0, failed: 0, skipped: 0 };
  const settings = mailSettings();
  if (!settings) return counts;
  await db
    .delete(notificationDigests)
    .where(
      or(
        lt(notificationDigests.sentAt, new Date(now.getTime() - KEEP_DIGESTS_MS)),
        lt(notificationDigests.failedAt, new Date(now.getTime() - KEEP_DIGESTS_MS)),
      ),
    );
  let after = 0;
  while (counts.due < maxMails) {
    const batch = await dueDigestMembers(now, after, Math.min(batchSize, maxMails - counts.due));
    for (const member of batch) {
      counts.due += 1;
      if (!(await queueDigest(member, now))) counts.skipped += 1;
    }
    if (batch.length < batchSize) break;
    after = batch[batch.length - 1]!.id;
  }
  for (let sent = 0; sent < maxMails;) {
    const claimed = await leaseDue(notificationDigests, openDigest(), now, Math.min(batchSize, maxMails - sent));
    for (const digest of claimed) counts[await sendDigest(digest, now, settings.publicUrl)] += 1;
    sent += claimed.length;
    if (claimed.length < batchSize) break;
  }
  return counts;
}

/**
 * The server sends due digests itself, at start-up and every `everyMs` (15 minutes), off the request
 * path, where SMTP is configured; `npm run digest` does the same once, for a timer. Returns a
 * function that stops it (the clean shutdown calls it).
 */
export function scheduleDigests({ everyMs = 15 * 60_000 }: { everyMs?: number } = {}): () => void {
  if (!mailSettings()) return () => undefined;
  return runEvery("notification-digests", everyMs, async () => {
    const counts = await sendDueDigests();
    if (counts.due + counts.failed > 0) logger.info(counts, "notification digests");
  });
}

/** The digests' queue as an operator sees it (`npm run jobs`, /metrics). */
export async function digestQueue(at = new Date()): Promise<{ owed: number; retrying: number; leased: number; failed: number }> {
  const open = openDigest();
  const count = (where: SQL | undefined) => countWhere(notificationDigests, where);
  return {
    owed: await count(open),
    retrying: await count(and(open, gt(notificationDigests.nextAttemptAt, at))),
    leased: await count(and(open, gt(notificationDigests.claimedUntil, at))),
    failed: await count(isNotNull(notificationDigests.failedAt)),
  };
}

type DueMember = { id: number; mode: DigestMode; digestAt: Date | null };

const emailMode = sql<EmailMode>`coalesce(${notificationSettings.email}, 'daily')`;

/** Due members after `after` (by id), each with an unread notification newer than their last digest. */
async function dueDigestMembers(now: Date, after: number, limit: number): Promise<DueMember[]> {
  const dueFor = (mode: DigestMode) => {
    const periodStart = new Date(now.getTime() - PERIOD_MS[mode]);
    const dueBefore = new Date(now.getTime() - PERIOD_MS[mode] + DUE_SLACK_MS);
    const newer = or(
      and(isNull(notificationSettings.digestAt), gt(notifications.createdAt, periodStart)),
      gt(notifications.createdAt, notificationSettings.digestAt),
    );
    return and(
      eq(emailMode, mode),
      or(isNull(notificationSettings.digestAt), lte(notificationSettings.digestAt, dueBefore)),
      exists(
        db
          .select({ one: sql`1` })
          .from(notifications)
          .where(and(eq(notifications.userId, users.id), isNull(notifications.readAt), newer, lte(notifications.createdAt, now))),
      ),
    );
  };
  const rows = await db
    .select({ id: users.id, mode: emailMode, digestAt: notificationSettings.digestAt })
    .from(users)
    .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
    .where(and(gt(users.id, after), notSuspendedAt(now.getTime()), or(dueFor("daily"), dueFor("weekly"))))
    .orderBy(asc(users.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, mode: r.mode as DigestMode }));
}

/**
 * The member's digest for `digestAt`..`now` becomes a row, and `digestAt` moves to `now`, together;
 * false when another process moved `digestAt` first (it queued this digest).
 */
async function queueDigest(member: DueMember, now: Date): Promise<boolean> {
  const unchanged = member.digestAt === null ? isNull(notificationSettings.digestAt) : eq(notificationSettings.digestAt, member.digestAt);
  return writeTransaction(async (tx) => {
    // An UPDATE, not an upsert: PostgreSQL's INSERT trigger fires for INSERT … ON CONFLICT even when
    // it updates, and digest_at alone must not move the data version.
    let moved = await tx
      .update(notificationSettings)
      .set({ digestAt: now })
      .where(and(eq(notificationSettings.userId, member.id), unchanged))
      .returning({ userId: notificationSettings.userId });
    // A member who never changed a setting has no row yet: their first digest makes it (once ever).
    if (moved.length === 0 && member.digestAt === null)
      moved = await tx
        .insert(notificationSettings)
        .values({ userId: member.id, digestAt: now })
        .onConflictDoNothing()
        .returning({ userId: notificationSettings.userId });
    if (moved.length === 0) return false;
    const since = member.digestAt ?? new Date(now.getTime() - PERIOD_MS[member.mode]);
    await tx.insert(notificationDigests).values({ userId: member.id, mode: member.mode, since, until: now });
    return true;
  });
}

type Digest = typeof notificationDigests.$inferSelect;

const openDigest = () => and(isNull(notificationDigests.sentAt), isNull(notificationDigests.failedAt))!;

async function sendDigest(digest: Digest, now: Date, publicUrl: string): Promise<"sent" | "empty" | "failed"> {
  const settle = (set: Partial<Digest>) =>
    db
      .update(notificationDigests)
      .set({ claimedUntil: null, ...set })
      .where(eq(notificationDigests.id, digest.id));
  try {
    const member = first(
      await db
        .select({ id: users.id, email: users.email, username: users.username, displayName: users.displayName })
        .from(users)
        .where(and(eq(users.id, digest.userId), notSuspendedAt(now.getTime()))),
    );
    // A member who chose instant mail or none since it was queued gets no digest.
    const stillWanted = member && isDigestMode((await settingsRow(member.id)).email);
    const items =
      member && stillWanted
        ? await withContent(
            member.id,
            (await unreadForDigest(member.id, digest.since, DIGEST_FETCHED)).filter(
              (i) => Date.parse(i.createdAt) <= digest.until.getTime(),
            ),
          )
        : [];
    if (!member || items.length === 0) {
      await settle({ sentAt: now });
      return "empty";
    }
    // The period began where an earlier digest ended, or (a first digest, or the first after
    // instant mail or none) a day or a week back: the intro says which.
    const afterLastDigest = Boolean(
      first(
        await db
          .select({ id: notificationDigests.id })
          .from(notificationDigests)
          .where(and(eq(notificationDigests.userId, member.id), eq(notificationDigests.until, digest.since)))
          .limit(1),
      ),
    );
    await sendMail({
      ...digestMail(member, items, digest.mode, publicUrl, { since: digest.since, until: digest.until, afterLastDigest }),
      messageId: messageIdOf(`digest.${member.id}.${digest.until.getTime()}`, publicUrl),
    });
    await settle({ sentAt: now });
    return "sent";
  } catch (error) {
    logServerError(error, { path: "job:notification-digest" });
    const { attempts, givenUp, nextAttemptAt } = afterFailedTry(digest.attempts, now);
    await settle(givenUp ? { attempts, failedAt: now } : { attempts, nextAttemptAt });
    if (givenUp) logger.warn({ digest: digest.id, member: digest.userId, attempts }, "notification digest given up");
    return "failed";
  }
}

// ---------------------------------------------------------------------------------------------
// The mails: plain text, and simple single-column HTML that reads well on a phone

type Link = { label: string; href: string };

/** An item's page as an absolute link (`href` is a site path; anything else goes to /notifications). */
function itemUrl(item: NotificationItem, publicUrl: string): string {
  const path = item.href.startsWith("/") && !item.href.startsWith("//") ? item.href : "/notifications";
  return `${publicUrl}${path}`;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
/** A subject line cut at `max` characters (whole code points), with an ellipsis when cut. */
const clip = (text: string, max: number) =>
  [...text].length > max
    ? `${[...text]
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`
    : text;

const BUTTON_LABEL: Partial<Record<NotificationKind, string>> = {
  comment: "Read the comment",
  mention: "See where you were mentioned",
  like: "See the post",
  follow: "See their profile",
  join_request: "Review the request",
  request_approved: "Open the club",
  request_rejected: "See the club",
  invite_joined: "See who joined",
  club_post: "Read the post",
  moderation: "See what changed",
};

function plural(n: number, word: string): string {
  return `${n} new ${word}${n === 1 ? "" : "s"}`;
}

const SUBJECT_CHARS = 150;

/**
 * A subject that says what happened: the line itself, or the first line and how many more
 * ("Hank Mercer commented on “Reading rub lines” and 2 more"), cut to SUBJECT_CHARS in all.
 */
function subjectOf(items: NotificationItem[], more = String(items.length - 1)): string {
  const firstLine = oneLine(items[0]!.text);
  if (items.length === 1) return clip(firstLine, SUBJECT_CHARS);
  const tail = ` and ${more} more`;
  return `${clip(firstLine, SUBJECT_CHARS - [...tail].length)}${tail}`;
}

/** The mail for notifications that just happened. */
export function instantMail(recipient: MailRecipient, items: MailItem[], publicUrl: string): Mail {
  const single = items.length === 1 ? items[0]! : null;
  const subject = subjectOf(items);
  const button: Link = single
    ? { label: BUTTON_LABEL[single.kind] ?? "Open it", href: itemUrl(single, publicUrl) }
    : { label: "See your notifications", href: `${publicUrl}/notifications` };
  const why = "You get an email as soon as something happens.";
  return composeMail(recipient, publicUrl, {
    subject,
    intro: single ? null : `${plural(items.length, "notification")}:`,
    items,
    button,
    why,
  });
}

/** How long a period was, as the intro says it: "day", "week", "3 days". */
function spanOf(ms: number): string {
  const days = Math.max(1, Math.round(ms / (24 * HOUR_MS)));
  return days === 1 ? "day" : days === 7 ? "week" : `${days} days`;
}

/**
 * The digest: what is still unread from its period, newest first. `period.afterLastDigest`: the
 * period began where an earlier digest ended ("since your last digest"); otherwise there was none
 * to speak of (the member's first, or their first after instant mail or none) and the intro names
 * the period's length instead.
 */
export function digestMail(
  recipient: MailRecipient,
  items: MailItem[],
  mode: DigestMode,
  publicUrl: string,
  period: { since: Date; until: Date; afterLastDigest: boolean },
): Mail {
  const capped = items.length >= DIGEST_FETCHED;
  const more = capped ? `${items.length - DIGEST_SHOWN}+` : String(items.length - DIGEST_SHOWN);
  const shown = items.slice(0, DIGEST_SHOWN);
  const count = capped ? `${DIGEST_FETCHED}+` : String(items.length);
  const noun = items.length === 1 ? "notification" : "notifications";
  const subject = subjectOf(items, capped ? `${DIGEST_FETCHED - 1}+` : String(items.length - 1));
  const every = mode === "daily" ? "day" : "week";
  const intro = period.afterLastDigest
    ? `Still unread since your last digest (${count} new ${noun}):`
    : `Still unread from the past ${spanOf(period.until.getTime() - period.since.getTime())} (${count} new ${noun}):`;
  return composeMail(recipient, publicUrl, {
    subject,
    intro,
    items: shown,
    more: items.length > DIGEST_SHOWN ? `…and ${more} more` : null,
    button: { label: "See all notifications", href: `${publicUrl}/notifications` },
    why: `You get a digest of unread notifications at most once a ${every}.`,
  });
}

type MailParts = {
  subject: string;
  intro: string | null;
  items: MailItem[];
  more?: string | null;
  button: Link;
  why: string;
};

function composeMail(recipient: MailRecipient, publicUrl: string, parts: MailParts): Mail {
  const unsubscribeUrl = `${publicUrl}/unsubscribe/${unsubscribeToken(recipient.id)}`;
  const settingsUrl = `${publicUrl}${SETTINGS_PATH}`;
  const name = oneLine(recipient.displayName) || recipient.username;
  // An item's text is the site's sentence (a removal's reason included); its quote, what was written.
  const lines = parts.items.map((item) => ({
    text: oneLine(item.text),
    quote: item.excerpt ? `“${item.excerpt}”` : null,
    url: itemUrl(item, publicUrl),
  }));

  const text = [
    `Hi ${name},`,
    "",
    ...(parts.intro ? [parts.intro, ""] : []),
    // A list gives each item its link; a single item's link is the button's line below.
    ...(parts.intro
      ? lines.flatMap((l) => [`• ${l.text}`, ...(l.quote ? [`  ${l.quote}`] : []), `  ${l.url}`, ""])
      : lines.flatMap((l) => [l.text, "", ...(l.quote ? [l.quote, ""] : [])])),
    ...(parts.more ? [parts.more, ""] : []),
    `${parts.button.label}: ${parts.button.href}`,
    "",
    "-- ",
    `${parts.why} Change how often in Settings › Notifications:`,
    settingsUrl,
    "",
    "Stop notification emails:",
    unsubscribeUrl,
    "",
  ].join("\n");

  const font = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
  const itemHtml = lines
    .map(
      (l) =>
        `<div style="padding:14px 0;border-top:1px solid #e7e5e4;">` +
        // Looks like a link in every client: underlined, in the site's brown (6.5:1 on the page's grey).
        `<a href="${escapeHtml(l.url)}" style="display:block;color:#92400e;text-decoration:underline;font-size:17px;">${escapeHtml(l.text)}</a>` +
        (l.quote
          ? `<div style="margin:8px 0 0;padding:2px 0 2px 12px;border-left:3px solid #d6d3d1;color:#44403c;">${escapeHtml(l.quote)}</div>`
          : "") +
        `</div>`,
    )
    .join("");
  const html = [
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(parts.subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f5f5f4;">`,
    `<div style="max-width:560px;margin:0 auto;padding:24px 16px;${font};font-size:16px;line-height:1.5;color:#1c1917;">`,
    `<p style="margin:0 0 16px;font-weight:bold;color:#78350f;">${escapeHtml(APP_NAME)}</p>`,
    `<p style="margin:0 0 12px;">Hi ${escapeHtml(name)},</p>`,
    parts.intro ? `<p style="margin:0 0 4px;">${escapeHtml(parts.intro)}</p>` : "",
    itemHtml,
    parts.more ? `<p style="margin:8px 0 0;color:#57534e;">${escapeHtml(parts.more)}</p>` : "",
    `<p style="margin:24px 0;"><a href="${escapeHtml(parts.button.href)}" style="display:block;padding:14px 20px;background:#78350f;color:#ffffff;text-align:center;text-decoration:none;font-weight:bold;font-size:17px;border-radius:8px;">${escapeHtml(parts.button.label)}</a></p>`,
    `<p style="margin:24px 0 0;padding-top:16px;border-top:1px solid #e7e5e4;font-size:14px;color:#57534e;">`,
    `${escapeHtml(parts.why)} <a href="${escapeHtml(settingsUrl)}" style="color:#57534e;">Change how often in Settings › Notifications</a>.<br>`,
    `<a href="${escapeHtml(unsubscribeUrl)}" style="color:#57534e;">Stop notification emails</a></p>`,
    `</div></body></html>`,
  ].join("\n");

  return {
    to: recipient.email,
    subject: parts.subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      // RFC 3834: sent by a machine, so out-of-office replies stay away.
      "Auto-Submitted": "auto-generated",
    },
  };
}
