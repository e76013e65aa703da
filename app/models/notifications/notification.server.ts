import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { notificationActs, notifications, notificationSettings, type NotificationKind, type ReportTarget } from "#db/schema";
import { afterCommit, db, first, queryRow, queryRows, writeTransaction, type Tx } from "~/utils/db.server";
import { runEvery } from "~/utils/jobs.server";
import { clubReadableSql, visiblePostSql } from "~/models/access.server";
import { notBlockedEitherWaySql } from "~/models/members/block.server";
import { mayModerateSql } from "~/models/moderation/moderation-access.server";
import { dayAtClock } from "~/utils/time-zone";
import { readerTimeZone } from "~/utils/reader-time.server";

/**
 * Notifications (CONTRACT.md §7, docs/decisions/0064-notifications.md): one row per recipient per
 * event, written by `notify` in the transaction of the action that caused it, so an event is never
 * half-told. What the member reads is built from the row and what it points at when the list is
 * read (titles and names stay current; a deleted post takes its notifications with it).
 */

export type NotificationEvent = {
  kind: NotificationKind;
  actorId: number | null;
  postId?: number;
  commentId?: number;
  clubId?: number;
  /** `moderation`: "removed" or "restored"; `report`: what was reported. */
  detail?: "removed" | "restored" | ReportTarget;
  /** `moderation`: the reason the author is shown; `report`: the first report's reason. */
  reason?: string | null;
  /** `report`: the case staff are told of (moderation/report-notice.server.ts). */
  caseId?: number;
  /** `club_event`, `event_reminder`, `event_cancelled`: the club hunt (issue 44); `clubId` is its club. */
  eventId?: number;
};

export type NotificationActor = { username: string; displayName: string; avatar: string | null };
export type NotificationItem = {
  id: number;
  kind: NotificationKind;
  read: boolean;
  createdAt: string;
  /** The sentence the site shows. */
  text: string;
  /** The site path the notification is about. */
  href: string;
  actors: NotificationActor[];
  actorCount: number;
  post?: { id: number; title: string };
  club?: { id: number; name: string };
  /** A club hunt's notice: the hunt, its title and start. */
  event?: { id: number; title: string; startsAt: string };
  commentId?: number;
  detail?: string | null;
  reason?: string | null;
};

export const NOTIFICATION_PAGE = 30;
/** The unread count stops here: the bar shows "99+" past 99, and counting never reads more rows. */
export const UNREAD_CAP = 100;

/**
 * Tells `recipientIds` of `event`: never the actor, never a member who blocked the actor or was
 * blocked by them, never of a post the recipient may not read (a private club's post reaches its
 * members only; a hidden post only its author), never a kind the member turned off in the app.
 * A like joins the recipient's unread like of the same post (the newest liker named, each liker
 * counted once). A follow, like or mention undone and done again within 24 hours tells nobody again
 * (`firstTelling`). Returns how many were told. Runs inside `tx` when given (the action's transaction).
 */
export async function notify(recipientIds: number[], event: NotificationEvent, tx?: Tx): Promise<number> {
  const candidates = [...new Set(recipientIds)].filter((id) => id !== event.actorId);
  if (candidates.length === 0) return 0;
  const work = async (q: Tx) => {
    const recipients = await firstTelling(q, await eligibleRecipients(q, candidates, event), event);
    if (recipients.length === 0) return 0;
    if (event.kind === "like" && event.postId) {
      for (const userId of recipients) await recordLike(q, userId, event.actorId, event.postId);
      return recipients.length;
    }
    await q.insert(notifications).values(
      recipients.map((userId) => ({
        userId,
        kind: event.kind,
        actorId: event.actorId,
        postId: event.postId ?? null,
        commentId: event.commentId ?? null,
        clubId: event.clubId ?? null,
        detail: event.detail ?? null,
        reason: event.reason ?? null,
        caseId: event.caseId ?? null,
        eventId: event.eventId ?? null,
      })),
    );
    return recipients.length;
  };
  const written = tx ? await work(tx) : await writeTransaction(work);
  // Once the rows are committed, never from inside the transaction (CONTRACT.md §11): the delivery
  // run this starts must not inherit the caller's transaction or its connection.
  if (written > 0) afterCommit(() => afterNotify());
  return written;
}

/** What runs once rows are committed (the delivery worker's nudge, notification-delivery.server.ts). */
let afterNotify: () => void = () => {};
export function onNotified(listener: () => void) {
  afterNotify = listener;
}

/** Acts a member can undo and do again at will: each tells its recipient once a day at most. */
const TOGGLED: Partial<Record<NotificationKind, (event: NotificationEvent) => string>> = {
  follow: () => "",
  like: (event) => `post:${event.postId ?? 0}`,
  mention: (event) => (event.commentId ? `comment:${event.commentId}` : `post:${event.postId ?? 0}`),
};
export const ACT_MEMORY_MS = 24 * 3_600_000;

/**
 * CONTRACT.md §11, no floods: of `recipients`, those not yet told of this act (this actor, this
 * kind, this post or comment) in the last 24 hours; the telling is noted in the same transaction. One
 * upsert decides, so two writes racing on either engine tell once: the second waits on the first's
 * key and finds it told. Other kinds (a comment, a club post, a removal) are each a new act.
 */
async function firstTelling(q: Tx, recipients: number[], event: NotificationEvent): Promise<number[]> {
  const subject = TOGGLED[event.kind];
  if (!subject || recipients.length === 0 || event.actorId === null) return recipients;
  const now = new Date();
  const told = await q
    .insert(notificationActs)
    .values(recipients.map((userId) => ({ userId, kind: event.kind, actorId: event.actorId!, subject: subject(event), toldAt: now })))
    .onConflictDoUpdate({
      target: [notificationActs.userId, notificationActs.kind, notificationActs.actorId, notificationActs.subject],
      set: { toldAt: now },
      setWhere: lt(notificationActs.toldAt, new Date(now.getTime() - ACT_MEMORY_MS)),
    })
    .returning({ userId: notificationActs.userId });
  const first = new Set(told.map((row) => Number(row.userId)));
  return recipients.filter((id) => first.has(id));
}

/** The memory of who was told of what, past its 24 hours (the daily prune). */
export async function pruneNotificationActs(now = new Date()): Promise<number> {
  const gone = await db
    .delete(notificationActs)
    .where(lt(notificationActs.toldAt, new Date(now.getTime() - ACT_MEMORY_MS)))
    .returning({ userId: notificationActs.userId });
  return gone.length;
}

/** Prunes that memory every hour, off the request. */
export function scheduleActPruning({ everyMs = 3_600_000 }: { everyMs?: number } = {}): () => void {
  return runEvery("prune-notification-acts", everyMs, () => pruneNotificationActs());
}

/**
 * The post `p` is one a notification of `kind` may name to `recipient` (SQL expressions): a hidden
 * post is its author's alone (access.server.ts), but for a `moderation` notice, which reaches the
 * author of what was removed or restored whatever became of the post (CONTRACT.md §8: "its author
 * ... is notified"). Telling (`notify`) and every read path (READABLE_POST) ask this one rule.
 */
const postNamedSql = (recipient: string, kind: string) => `(${visiblePostSql("p", recipient)} OR ${kind} = 'moderation')`;

/** Kinds whose event may also mention the recipient, and then say nothing more (eligibleRecipients). */
const SAID_BY_A_MENTION = new Set<NotificationKind>(["comment", "club_post"]);

async function eligibleRecipients(q: Tx, candidates: number[], event: NotificationEvent): Promise<number[]> {
  // Ids are our own integers (never a member's text), so the list is written into the SQL.
  const ids = candidates.filter((id) => Number.isSafeInteger(id)).join(", ");
  const conditions: string[] = [`u.id IN (${ids})`];
  const params: Record<string, unknown> = {
    actor: event.actorId ?? 0,
    post: event.postId ?? 0,
    comment: event.commentId ?? 0,
    kind: event.kind,
    case_id: event.caseId ?? 0,
  };
  if (event.kind === "report") {
    // Staff hear of a case while they may decide it, and once per target while the notice is unread:
    // a case dismissed and reported again is in the queue already for whoever has not read the first.
    conditions.push(mayModerateSql("u.id", event.caseId ? "(SELECT mc.club_id FROM moderation_cases mc WHERE mc.id = @case_id)" : "NULL"));
    conditions.push(`NOT EXISTS (SELECT 1 FROM notifications n JOIN moderation_cases told ON told.id = n.case_id
      JOIN moderation_cases now ON now.id = @case_id
      WHERE n.user_id = u.id AND n.kind = 'report' AND n.read_at IS NULL
        AND told.target_type = now.target_type AND told.target_id = now.target_id)`);
  }
  if (event.actorId) {
    conditions.push(notBlockedEitherWaySql("u.id", "@actor"));
  }
  if (event.postId) {
    // The post is there, one the notice may name to the recipient, and in a club they may read.
    conditions.push(`EXISTS (SELECT 1 FROM posts p WHERE p.id = @post
      AND ${postNamedSql("u.id", "@kind")}
      AND (p.club_id IS NULL OR ${clubReadableSql("p.club_id", "u.id")}))`);
  }
  if (event.actorId && event.postId && SAID_BY_A_MENTION.has(event.kind)) {
    // One notification per member per event (ux-3 U5), the mention first: a comment or club post
    // that mentions them told them already. The mention is told first (addComment, createPost's
    // transaction; a club post's fan-out runs after it commits); one the member turned off is no row,
    // so the comment or club post still tells them.
    conditions.push(`NOT EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = u.id AND n.kind = 'mention'
      AND n.actor_id = @actor AND n.post_id = @post AND ${event.commentId ? "n.comment_id = @comment" : "n.comment_id IS NULL"})`);
  }
  if (event.eventId) {
    // A club hunt's notice reaches only those who may read the club (CONTRACT.md §7).
    params.event = event.eventId;
    conditions.push(`EXISTS (SELECT 1 FROM club_events e WHERE e.id = @event AND ${clubReadableSql("e.club_id", "u.id")})`);
  }
  if (event.commentId && event.kind !== "moderation") {
    conditions.push(`EXISTS (SELECT 1 FROM comments cm WHERE cm.id = @comment AND cm.hidden_at IS NULL)`);
  }
  // queryRows runs inside the caller's open transaction on both engines (db.server.ts).
  const allowed = (await queryRows<{ id: number }>(`SELECT u.id AS id FROM users u WHERE ${conditions.join(" AND ")}`, params)).map((r) =>
    Number(r.id),
  );
  if (allowed.length === 0 || event.kind === "club_post") return allowed;
  // A kind the member turned off in the app (no settings row: every kind on).
  const off = await q
    .select({ userId: notificationSettings.userId, inAppOff: notificationSettings.inAppOff })
    .from(notificationSettings)
    .where(inArray(notificationSettings.userId, allowed));
  const silenced = new Set(off.filter((row) => row.inAppOff.includes(event.kind)).map((row) => row.userId));
  return allowed.filter((id) => !silenced.has(id));
}

/**
 * One unread like row per post and recipient: a new like replaces it with a row that counts one
 * more and names the newest liker (a new id, so it comes back to the top of the list). A row the
 * instant mail or push already told keeps its marks (`sentAt`, `pushedAt`, `mailedAt`): a member hears
 * of a post's likes once per read.
 */
async function recordLike(q: Tx, userId: number, actorId: number | null, postId: number) {
  const previous = first(
    await q
      .delete(notifications)
      .where(
        and(
          eq(notifications.userId, userId),
          eq(notifications.postId, postId),
          eq(notifications.kind, "like"),
          isNull(notifications.readAt),
        ),
      )
      .returning({
        actorCount: notifications.actorCount,
        sentAt: notifications.sentAt,
        pushedAt: notifications.pushedAt,
        mailedAt: notifications.mailedAt,
      }),
  );
  await q.insert(notifications).values({
    userId,
    kind: "like",
    actorId,
    postId,
    actorCount: (previous?.actorCount ?? 0) + 1,
    sentAt: previous?.sentAt ?? null,
    pushedAt: previous?.pushedAt ?? null,
    mailedAt: previous?.mailedAt ?? null,
  });
}

/** Removed content takes its notifications along, but for the author's own word of the removal. */
export async function forgetNotificationsAbout(q: Tx, target: { type: "post" | "comment"; id: number }) {
  const column = target.type === "post" ? notifications.postId : notifications.commentId;
  await q.delete(notifications).where(and(eq(column, target.id), sql`${notifications.kind} <> 'moderation'`));
}

// ---------------------------------------------------------------------------------------------
// Reading

type ItemRow = {
  id: number;
  kind: NotificationKind;
  read_at: number | null;
  created_at: number;
  actor_count: number;
  detail: string | null;
  reason: string | null;
  comment_id: number | null;
  post_id: number | null;
  post_title: string | null;
  club_id: number | null;
  club_name: string | null;
  actor_username: string | null;
  actor_display_name: string | null;
  actor_avatar: string | null;
  case_target: ReportTarget | null;
  case_snapshot: string | null;
  event_id: number | null;
  event_title: string | null;
  event_starts_at: number | string | null;
};

const ITEM_SELECT = `SELECT n.id AS id, n.kind AS kind, n.read_at AS read_at, n.created_at AS created_at,
    n.actor_count AS actor_count, n.detail AS detail, n.reason AS reason, n.comment_id AS comment_id,
    n.post_id AS post_id, p.title AS post_title, COALESCE(n.club_id, p.club_id) AS club_id, c.name AS club_name,
    a.username AS actor_username, a.display_name AS actor_display_name, a.avatar AS actor_avatar,
    mc.target_type AS case_target, mc.snapshot AS case_snapshot,
    e.id AS event_id, e.title AS event_title, e.starts_at AS event_starts_at
  FROM notifications n
  LEFT JOIN users a ON a.id = n.actor_id
  LEFT JOIN posts p ON p.id = n.post_id
  LEFT JOIN clubs c ON c.id = COALESCE(n.club_id, p.club_id)
  LEFT JOIN moderation_cases mc ON mc.id = n.case_id
  LEFT JOIN club_events e ON e.id = n.event_id`;

/**
 * What the recipient may still read (CONTRACT.md §11), checked each time a notification is listed,
 * counted, mailed, pushed or put in a digest: a post hidden since (reports) is left out until it is
 * back, but for its author and a moderation notice (`postNamedSql`); a post in a private club the recipient has left or was removed from is
 * left out, author or not, as long as they are not a member (titles stay current, so an edited title
 * would otherwise reach them).
 */
const READABLE_POST = `${postNamedSql("n.user_id", "n.kind")}
    AND (p.club_id IS NULL OR ${clubReadableSql("p.club_id", "n.user_id")})`;
/** A staff notice of a report (kind `report`) while the recipient may still moderate the case's club (n.club_id) or the site. */
const STILL_STAFF = `(CASE WHEN n.kind <> 'report' THEN TRUE ELSE COALESCE(${mayModerateSql("n.user_id", "n.club_id")}, FALSE) END)`;
/** A club hunt's notice while the recipient may still read its club (a member who left a private club no longer sees its hunts). */
// Written with the kind and club (every hunt notice carries its club) so the unread count stays inside notifications_unread.
const EVENT_READABLE = `(n.kind NOT IN ('club_event', 'event_reminder', 'event_cancelled') OR ${clubReadableSql("n.club_id", "n.user_id")})`;
const STILL_READABLE = `(p.id IS NULL OR (${READABLE_POST})) AND ${STILL_STAFF} AND ${EVENT_READABLE}`;

/** A page of the member's notifications, newest first (@viewer, @before when `after`, @limit); the bench's plan check explains it. */
export const notificationPageSql = (after: boolean) =>
  `${ITEM_SELECT} WHERE n.user_id = @viewer ${after ? "AND n.id < @before" : ""} AND ${STILL_READABLE}
     ORDER BY n.id DESC LIMIT @limit`;

/** The member's notifications, newest first, 30 a page; the cursor is the last id shown. */
export async function listNotifications(
  viewer: { id: number },
  { limit = NOTIFICATION_PAGE, cursor = null }: { limit?: number; cursor?: string | null } = {},
): Promise<{ items: NotificationItem[]; unread: number; nextCursor: string | null }> {
  const size = Math.min(Math.max(1, Math.trunc(limit) || NOTIFICATION_PAGE), 100);
  const before = cursor && /^\d{1,15}$/.test(cursor) ? Number(cursor) : null;
  const rows = await queryRows<ItemRow>(notificationPageSql(Boolean(before)), {
    viewer: viewer.id,
    before: before ?? 0,
    limit: size + 1,
  });
  const page = rows.slice(0, size);
  return {
    items: page.map(toItem),
    unread: await unreadCount(viewer.id),
    nextCursor: rows.length > size ? String(page[page.length - 1]!.id) : null,
  };
}

/** Unread notifications newer than `since` (a digest's content), newest first. */
export async function unreadForDigest(userId: number, since: Date | null, limit = 50): Promise<NotificationItem[]> {
  const rows = await queryRows<ItemRow>(
    `${ITEM_SELECT} WHERE n.user_id = @viewer AND n.read_at IS NULL AND n.created_at > @since AND ${STILL_READABLE}
     ORDER BY n.id DESC LIMIT @limit`,
    { viewer: userId, since: since?.getTime() ?? 0, limit },
  );
  return rows.map(toItem);
}

/** Particular notifications as items (the delivery worker's), in id order: only those still readable. */
export async function notificationItems(ids: number[]): Promise<NotificationItem[]> {
  if (ids.length === 0) return [];
  const list = ids.filter((id) => Number.isSafeInteger(id)).join(", ");
  return (await queryRows<ItemRow>(`${ITEM_SELECT} WHERE n.id IN (${list}) AND ${STILL_READABLE} ORDER BY n.id`)).map(toItem);
}

/** The capped unread count (@viewer); the bench's plan check explains it. */
export const UNREAD_COUNT_SQL = `SELECT COUNT(*) AS unread FROM (SELECT 1 FROM notifications n
    WHERE n.user_id = @viewer AND n.read_at IS NULL
      AND (n.post_id IS NULL OR EXISTS (SELECT 1 FROM posts p WHERE p.id = n.post_id AND ${READABLE_POST}))
      AND ${STILL_STAFF} AND ${EVENT_READABLE}
    LIMIT ${UNREAD_CAP}) AS u`;

/**
 * Unread notifications the member may still read, counted up to UNREAD_CAP: a walk of the member's
 * part of the unread partial index, each row's post looked up by its key, that stops at the cap.
 */
export async function unreadCount(userId: number): Promise<number> {
  const row = await queryRow<{ unread: number | string }>(UNREAD_COUNT_SQL, { viewer: userId });
  return Number(row?.unread ?? 0);
}

/** Marks the member's notifications read: these ids (only their own; others' are left alone), or all. */
export async function markRead(viewer: { id: number }, ids?: number[]): Promise<void> {
  const mine = and(eq(notifications.userId, viewer.id), isNull(notifications.readAt));
  const chosen = ids ? ids.filter((id) => Number.isSafeInteger(id)) : null;
  if (chosen && chosen.length === 0) return;
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(chosen ? and(mine, inArray(notifications.id, chosen)) : mine);
}

const quote = (title: string) => `“${title}”`;

function toItem(row: ItemRow): NotificationItem {
  const actor = row.actor_username
    ? { username: row.actor_username, displayName: row.actor_display_name ?? row.actor_username, avatar: row.actor_avatar }
    : null;
  const post = row.post_id && row.post_title !== null ? { id: Number(row.post_id), title: row.post_title } : undefined;
  const club = row.club_id && row.club_name !== null ? { id: Number(row.club_id), name: row.club_name } : undefined;
  const commentId = row.comment_id ? Number(row.comment_id) : undefined;
  const actorCount = Number(row.actor_count);
  const reported = row.case_target && row.case_snapshot !== null ? { type: row.case_target, snapshot: row.case_snapshot } : undefined;
  const event =
    row.event_id && row.event_title !== null
      ? { id: Number(row.event_id), title: row.event_title, startsAt: new Date(Number(row.event_starts_at)).toISOString() }
      : undefined;
  const { text, href } = describe(row.kind, {
    actor,
    actorCount,
    post,
    club,
    event,
    commentId,
    detail: row.detail,
    reason: row.reason,
    reported,
  });
  return {
    id: Number(row.id),
    kind: row.kind,
    read: row.read_at !== null,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    text,
    href,
    actors: actor ? [actor] : [],
    actorCount,
    ...(post ? { post } : {}),
    ...(club ? { club } : {}),
    ...(event ? { event } : {}),
    ...(commentId ? { commentId } : {}),
    ...(row.kind === "moderation" ? { detail: row.detail, reason: row.reason } : {}),
  };
}

type Parts = {
  actor: NotificationActor | null;
  actorCount: number;
  post?: { id: number; title: string };
  club?: { id: number; name: string };
  event?: { id: number; title: string; startsAt: string };
  commentId?: number;
  detail: string | null;
  reason: string | null;
  /** `report`: the case's target, as it was first reported. */
  reported?: { type: ReportTarget; snapshot: string };
};

/** A report notice's "what": its kind and the first line of the text as reported, clipped (never who reported it). */
function reportedThing(reported: Parts["reported"], club: Parts["club"]): string {
  if (!reported) return "something";
  const line = reported.snapshot.split("\n")[0]!.trim();
  const clipped = [...line].length > 80 ? `${[...line].slice(0, 79).join("").trimEnd()}…` : line;
  const where = club && (reported.type === "post" || reported.type === "comment") ? ` in ${club.name}` : "";
  const name = { post: "a post", comment: "a comment", user: "a member", club: "a club" }[reported.type];
  return `${name} ${quote(clipped)}${where}`;
}

/** The sentence and the page of each kind (CONTRACT.md §7's table). */
function describe(
  kind: NotificationKind,
  { actor, actorCount, post, club, event, commentId, detail, reason, reported }: Parts,
): { text: string; href: string } {
  const who = actor?.displayName ?? "A former member";
  const title = post ? quote(post.title) : "a post";
  const postHref = post ? `/post/${post.id}${commentId ? `#comment-${commentId}` : ""}` : "/notifications";
  const clubName = club?.name ?? "a club";
  const clubHref = club ? `/clubs/${club.id}` : "/clubs";
  switch (kind) {
    case "comment":
      return { text: `${who} commented on ${title}`, href: postHref };
    case "mention":
      return { text: commentId ? `${who} mentioned you in a comment on ${title}` : `${who} mentioned you in ${title}`, href: postHref };
    case "like": {
      const others = actorCount - 1;
      const names = others > 0 ? `${who} and ${others} ${others === 1 ? "other" : "others"}` : who;
      return { text: `${names} liked ${title}`, href: postHref };
    }
    case "follow":
      return { text: `${who} started following you`, href: actor ? `/profile/${actor.username}` : "/notifications" };
    case "join_request":
      return { text: `${who} asked to join ${clubName}`, href: club ? `/clubs/${club.id}/requests` : clubHref };
    case "request_approved":
      return { text: `Your request to join ${clubName} was approved`, href: clubHref };
    case "request_rejected":
      return { text: `Your request to join ${clubName} was declined`, href: clubHref };
    case "invite_joined":
      return { text: `${who} joined ${clubName} through your invite`, href: club ? `/clubs/${club.id}/members` : clubHref };
    case "club_post":
      return { text: `${who} posted ${title} in ${clubName}`, href: postHref };
    case "moderation": {
      const what = commentId ? `Your comment on ${title}` : `Your post ${title}`;
      if (detail === "restored") return { text: `${what} was restored`, href: postHref };
      return { text: `${what} was removed${reason ? `: ${reason}` : ""}`, href: postHref };
    }
    case "club_event":
    case "event_reminder":
    case "event_cancelled": {
      const hunt = event ? quote(event.title) : "a hunt";
      const href = club && event ? `/clubs/${club.id}/events/${event.id}` : clubHref;
      // In the reader's zone on a page (their `tz` cookie), in UTC, labelled, in a mail.
      const when = event ? ` on ${dayAtClock(Date.parse(event.startsAt), readerTimeZone())}` : "";
      if (kind === "club_event") return { text: `${who} planned ${hunt} in ${clubName}${when}`, href };
      if (kind === "event_reminder") return { text: `Reminder: ${hunt} in ${clubName} starts${when}`, href };
      return { text: `${hunt} in ${clubName}${when} was cancelled`, href };
    }
    case "report":
      // Staff's word of a new case (ux-3 U23): what and why, never who reported it.
      return { text: `New report: ${reportedThing(reported, club)}${reason ? ` (${reason.replace("_", " ")})` : ""}`, href: "/moderation" };
  }
}
