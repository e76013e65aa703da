import { and, asc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { notificationSettingsOf } from "~/models/notifications/notification-settings.server";
import { alias } from "drizzle-orm/sqlite-core";
import {
  blocks,
  clubEventRsvps,
  clubEvents,
  clubMembers,
  clubs,
  comments,
  fieldReports,
  follows,
  invites,
  joinRequests,
  likes,
  media,
  moderationCases,
  posts,
  pushSubscriptions,
  reports,
  sessions,
  shares,
  users,
} from "#db/schema";
import type { AccountDeletionInput } from "~/schemas/profile";
import type { OwnedClubFate, SelfUser } from "~/schemas/shapes";
import { APP_NAME } from "~/utils/brand";
import { db, decrementCounter, writeTransaction } from "~/utils/db.server";
import { unauthorized } from "~/utils/errors";
import type { MediaStorage } from "~/utils/media/storage.server";
import { requireSignedIn, type Queryable } from "~/models/access.server";
import { removeClub } from "~/models/clubs/club.server";
import { deleteMediaFiles, type MediaFiles } from "~/models/media/media.server";
import { requireOwnPassword } from "./profile.server";
import { removeResumableBytes, unfinishedResumableIds } from "~/models/media/resumable-upload.server";
import { getUserRowById, holdUsername, toSelfUser, type Actor } from "./user.server";
import { countyRef, getCounty } from "~/utils/counties/counties.server";
import { fieldReportColumns, reportCounty } from "~/models/places/field-report.server";

/**
 * A member's own data (CONTRACT.md §6, docs/decisions/0039-a-members-own-data.md): the export of
 * everything they wrote, and the deletion of their account. Both act on the signed-in member only
 * (401 otherwise); there is no way to name another member.
 */

export const WRONG_PASSWORD = "Password is incorrect";

const clubRef = { id: clubs.id, name: clubs.name };

/**
 * Everything the member wrote or did, as one object for JSON.stringify (its dates become ISO strings). Of anyone else it holds names only
 * (the clubs they belong to, the members they follow, who follow them and whom they blocked); a like,
 * comment, share or report of something else names it by its id. Every member column in the schema
 * is here or in EXCLUDED_MEMBER_COLUMNS with its reason (EXPORTED_MEMBER_COLUMNS, the export guard).
 * New lists are added as new keys: a saved export's existing keys keep their shape.
 */
function homeCountyRef(fips: string | null) {
  const county = getCounty(fips);
  return county ? countyRef(county) : null;
}

export async function exportAccount(actor: Actor) {
  const me = requireSignedIn(actor);
  const row = await getUserRowById(me.id);
  if (!row) throw unauthorized();
  const other = alias(users, "other");
  const person = { username: other.username, displayName: other.displayName };
  const id = me.id;
  return {
    site: APP_NAME,
    exportedAt: new Date().toISOString(),
    profile: toSelfUser(row) satisfies SelfUser,
    /** Settings › Profile › Home county (issue 45), or null. */
    homeCounty: homeCountyRef(row.homeCounty),
    posts: (
      await db
        .select({ post: posts, club: clubRef })
        .from(posts)
        .leftJoin(clubs, eq(clubs.id, posts.clubId))
        .where(eq(posts.authorId, id))
        .orderBy(asc(posts.createdAt), asc(posts.id))
    ).map(({ post: p, club }) => ({
      id: p.id,
      type: p.type,
      title: p.title,
      content: p.content,
      mediaUrl: p.mediaUrl,
      urlMetadata: p.urlMetadata,
      tags: p.tags ?? [],
      club,
      likes: p.likesCount,
      comments: p.commentsCount,
      shares: p.sharesCount,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
    })),
    // The field reports on the member's posts (issue 45, ADR 0095): the harvest log, every kind, by day seen.
    fieldReports: (
      await db
        .select({
          postId: fieldReports.postId,
          ...fieldReportColumns,
          createdAt: fieldReports.createdAt,
        })
        .from(fieldReports)
        .where(eq(fieldReports.authorId, id))
        .orderBy(asc(fieldReports.observedOn), asc(fieldReports.postId))
    ).map(({ county, ...report }) => ({ ...report, county: reportCounty(county) })),
    comments: await db
      .select({ id: comments.id, postId: comments.postId, content: comments.content, createdAt: comments.createdAt })
      .from(comments)
      .where(eq(comments.authorId, id))
      .orderBy(asc(comments.createdAt), asc(comments.id)),
    likes: await db
      .select({ postId: likes.postId, createdAt: likes.createdAt })
      .from(likes)
      .where(eq(likes.userId, id))
      .orderBy(asc(likes.createdAt)),
    shares: await db
      .select({ postId: shares.postId, createdAt: shares.createdAt })
      .from(shares)
      .where(eq(shares.userId, id))
      .orderBy(asc(shares.createdAt)),
    following: await db
      .select({ ...person, since: follows.createdAt })
      .from(follows)
      .innerJoin(other, eq(other.id, follows.followeeId))
      .where(eq(follows.followerId, id))
      .orderBy(asc(follows.createdAt)),
    followers: await db
      .select({ ...person, since: follows.createdAt })
      .from(follows)
      .innerJoin(other, eq(other.id, follows.followerId))
      .where(eq(follows.followeeId, id))
      .orderBy(asc(follows.createdAt)),
    clubs: (await ownedClubs(db, id)).map(({ club: { creatorId: _, ...club } }) => club),
    memberships: await db
      .select({ club: clubRef, role: clubMembers.role, joinedAt: clubMembers.joinedAt })
      .from(clubMembers)
      .innerJoin(clubs, eq(clubs.id, clubMembers.clubId))
      .where(eq(clubMembers.userId, id))
      .orderBy(asc(clubMembers.joinedAt)),
    joinRequests: await db
      .select({
        club: clubRef,
        status: joinRequests.status,
        message: joinRequests.message,
        createdAt: joinRequests.createdAt,
        decidedAt: joinRequests.decidedAt,
      })
      .from(joinRequests)
      .innerJoin(clubs, eq(clubs.id, joinRequests.clubId))
      .where(eq(joinRequests.userId, id))
      .orderBy(asc(joinRequests.createdAt)),
    invites: await db
      .select({
        club: clubRef,
        code: invites.code,
        usesRemaining: invites.usesRemaining,
        expiresAt: invites.expiresAt,
        createdAt: invites.createdAt,
      })
      .from(invites)
      .innerJoin(clubs, eq(clubs.id, invites.clubId))
      .where(eq(invites.createdById, id))
      .orderBy(asc(invites.createdAt)),
    // The club hunts the member planned, and their answers to hunts (ADR 0089).
    hunts: await db
      .select({
        club: clubRef,
        title: clubEvents.title,
        description: clubEvents.description,
        location: clubEvents.location,
        startsAt: clubEvents.startsAt,
        endsAt: clubEvents.endsAt,
        cancelledAt: clubEvents.cancelledAt,
        createdAt: clubEvents.createdAt,
      })
      .from(clubEvents)
      .innerJoin(clubs, eq(clubs.id, clubEvents.clubId))
      .where(eq(clubEvents.createdById, id))
      .orderBy(asc(clubEvents.startsAt), asc(clubEvents.id)),
    huntAnswers: await db
      .select({
        club: clubRef,
        hunt: clubEvents.title,
        startsAt: clubEvents.startsAt,
        answer: clubEventRsvps.status,
        at: clubEventRsvps.updatedAt,
      })
      .from(clubEventRsvps)
      .innerJoin(clubEvents, eq(clubEvents.id, clubEventRsvps.eventId))
      .innerJoin(clubs, eq(clubs.id, clubEvents.clubId))
      .where(eq(clubEventRsvps.userId, id))
      .orderBy(asc(clubEvents.startsAt), asc(clubEvents.id)),
    media: (await db.select().from(media).where(eq(media.ownerId, id)).orderBy(asc(media.createdAt), asc(media.id))).map((m) => ({
      url: m.url,
      kind: m.kind,
      name: m.name,
      mimeType: m.mimeType,
      size: m.size,
      postId: m.postId,
      variants: (m.variants ?? []).map((v) => v.url),
      createdAt: m.createdAt,
    })),
    sessions: await db
      .select({ device: sessions.device, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(eq(sessions.userId, id)),
    // Settings › Notifications as GET /api/notifications/settings answers it (CONTRACT.md §7).
    notificationSettings: await notificationSettingsOf(id),
    // The members this member blocked, by name, as GET /api/auth/blocks lists them (CONTRACT.md §8).
    // Who blocked *them* is the blocker's choice, which the site never shows the blocked member, so
    // it is not here (blocks.blocked_id in EXCLUDED_MEMBER_COLUMNS).
    blocks: await db
      .select({ ...person, since: blocks.createdAt })
      .from(blocks)
      .innerJoin(other, eq(other.id, blocks.blockedId))
      .where(eq(blocks.blockerId, id))
      .orderBy(asc(blocks.createdAt), asc(other.username)),
    reports: (await reportsFiledBy(id)).map(({ targetType, targetId, ...report }) => ({
      target: { type: targetType, id: targetId },
      ...report,
    })),
    pushSubscriptions: (await pushSubscriptionsOf(id)).map(({ endpoint, ...subscription }) => ({
      service: pushServiceOf(endpoint),
      ...subscription,
    })),
  };
}
export type AccountExport = Awaited<ReturnType<typeof exportAccount>>;

/**
 * The reports the member filed (CONTRACT.md §8 "Reports"): what they reported (type and id, as a
 * like names a post), the reason and details in their own words, when, and whether the case is still
 * open or has been decided, which is all a reporter is ever told. Not the report's `snapshot`: that is
 * the reported member's text, and the export holds nothing of anyone else beyond names. Nothing of the
 * case beyond its status either: not the other reports on it, who decided it, how, or the
 * moderator's reason (moderation_log).
 */
function reportsFiledBy(userId: number) {
  return db
    .select({
      targetType: reports.targetType,
      targetId: reports.targetId,
      reason: reports.reason,
      details: reports.details,
      createdAt: reports.createdAt,
      status: moderationCases.status,
    })
    .from(reports)
    .innerJoin(moderationCases, eq(moderationCases.id, reports.caseId))
    .where(eq(reports.reporterId, userId))
    .orderBy(asc(reports.createdAt), asc(reports.id));
}

/**
 * The browsers that get the member's pushes (CONTRACT.md §7 "Web push"): which push service each
 * goes through, the device of the session it was made in (as Settings › Security names it; null for
 * a row from before subscriptions had a session) and when. What a member expects to find here is
 * "which of my devices get notifications, since when". Not the endpoint itself: its path is the push
 * service's opaque address for that one browser, good for nothing to the member, and a file that gets
 * saved, mailed and backed up is no place for it. Never the browser's p256dh and auth keys: they
 * encrypt every push to that browser, and `auth` is a secret.
 */
function pushSubscriptionsOf(userId: number) {
  return db
    .select({ endpoint: pushSubscriptions.endpoint, device: sessions.device, createdAt: pushSubscriptions.createdAt })
    .from(pushSubscriptions)
    .leftJoin(sessions, eq(sessions.id, pushSubscriptions.sessionId))
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
}

/** The push service's host (fcm.googleapis.com: Chrome, updates.push.services.mozilla.com: Firefox, web.push.apple.com: Safari). */
function pushServiceOf(endpoint: string): string | null {
  try {
    return new URL(endpoint).host || null;
  } catch {
    return null;
  }
}

/**
 * The export guard (architecture-3 L2): every column that points at `users.id`, as `table.column`,
 * is either exported (here, with the key of the export that holds its rows) or excluded (in
 * EXCLUDED_MEMBER_COLUMNS, with the reason). tests/integration/account-export.test.ts reads the
 * foreign keys of db/schema-sqlite.ts and fails on a column in neither, on an entry that names no
 * such column, and on an exported column whose rows do not reach their key; so a new table (or
 * column) about a member has to decide here whether the member gets it back.
 */
export const EXPORTED_MEMBER_COLUMNS = {
  "posts.author_id": "posts",
  "field_reports.author_id": "fieldReports",
  "comments.author_id": "comments",
  "likes.user_id": "likes",
  "shares.user_id": "shares",
  "follows.follower_id": "following",
  "follows.followee_id": "followers",
  // The clubs the member owns (club_members' role); whoever created a club, its owner is the one it belongs to now.
  "clubs.creator_id": "clubs",
  "club_members.user_id": "memberships",
  "join_requests.user_id": "joinRequests",
  "invites.created_by_id": "invites",
  "media.owner_id": "media",
  // Device and times only, never the token's hash.
  "sessions.user_id": "sessions",
  "notification_settings.user_id": "notificationSettings",
  "blocks.blocker_id": "blocks",
  "reports.reporter_id": "reports",
  "push_subscriptions.user_id": "pushSubscriptions",
  "club_events.created_by_id": "hunts",
  "club_event_rsvps.user_id": "huntAnswers",
} as const satisfies Record<string, keyof AccountExport>;

/** The member columns the export leaves out on purpose, each with why (see EXPORTED_MEMBER_COLUMNS). */
export const EXCLUDED_MEMBER_COLUMNS: Readonly<Record<string, string>> = {
  "blocks.blocked_id":
    "who blocked the member: the blocker's choice, never shown to the member they blocked (CONTRACT.md §8); their own blocks are exported",
  "moderation_cases.subject_id":
    "the moderators' case about the member's content: other members' reports (whose authors are never named) and staff's decisions; the member is told of a removal, with its reason, by notification, and a removed post is still in their export",
  "notifications.user_id":
    "the bell: other members' acts (likes, comments, follows, club posts) told to the member, a working set whose read rows are pruned as they age; the member's own content they point at is exported",
  "notifications.actor_id": "a notification the member's act caused is the recipient's, not the member's",
  "notification_acts.user_id": "bookkeeping against floods (who was told of which act), pruned after a day",
  "notification_acts.actor_id": "bookkeeping against floods (who was told of which act), pruned after a day",
  "notification_fanouts.actor_id": "job bookkeeping: the fan-out of a club post's notifications; the post itself is exported",
  "notification_digests.user_id": "job bookkeeping: the digest mails' queue (leases, attempts), pruned after a month",
  "club_event_jobs.actor_id": "job bookkeeping: who planned a hunt, for its notices' queue; the hunt itself is exported",
  "incoming_shares.owner_id":
    "what a phone's share sheet sent, kept at most an hour until the create page takes it; what became a post or an upload is exported",
  "ended_sessions.user_id":
    "the hashes of the session tokens a suspension ended, kept 30 days so the member's open pages can say why they were signed out",
  "password_resets.user_id": "a secret: the hash of a one-time reset link's token, deleted when used",
  "idempotency_keys.user_id":
    "replay cache: copies of the answers to the member's own requests, kept 24 hours; what those requests made is exported itself",
  "resumable_uploads.owner_id": "an upload still in progress (bytes, not yet media); once finished it is in media",
  "club_bans.user_id":
    "club staff's bar on a member they removed, for 30 days: the member is told it, with its end date, whenever they try to join; their removal is in the club's moderation log, not theirs",
};

function ownedClubs(q: Queryable, userId: number) {
  return q
    .select({ club: clubs })
    .from(clubMembers)
    .innerJoin(clubs, eq(clubs.id, clubMembers.clubId))
    .where(and(eq(clubMembers.userId, userId), eq(clubMembers.role, "owner")))
    .orderBy(asc(clubs.name), asc(clubs.id));
}

/** Who takes a club over from a departing owner: its longest-standing admin, else longest-standing member. */
async function heirOf(q: Queryable, clubId: number, ownerId: number) {
  const [heir] = await q
    .select({ userId: clubMembers.userId, role: clubMembers.role, username: users.username, displayName: users.displayName })
    .from(clubMembers)
    .innerJoin(users, eq(users.id, clubMembers.userId))
    .where(and(eq(clubMembers.clubId, clubId), ne(clubMembers.userId, ownerId)))
    .orderBy(sql`CASE ${clubMembers.role} WHEN 'admin' THEN 0 ELSE 1 END`, asc(clubMembers.joinedAt), asc(clubMembers.id))
    .limit(1);
  return heir;
}

async function clubFates(q: Queryable, userId: number): Promise<(OwnedClubFate & { heirId: number | null })[]> {
  const fates: (OwnedClubFate & { heirId: number | null })[] = [];
  for (const { club } of await ownedClubs(q, userId)) {
    const heir = await heirOf(q, club.id, userId);
    fates.push({
      id: club.id,
      name: club.name,
      heirId: heir?.userId ?? null,
      heir: heir ? { username: heir.username, displayName: heir.displayName, role: heir.role === "admin" ? "admin" : "member" } : null,
    });
  }
  return fates;
}

/** What deleting the account would do to each club the member owns (Settings › Privacy says it first). */
export async function clubsOnAccountDeletion(actor: Actor): Promise<OwnedClubFate[]> {
  const me = requireSignedIn(actor);
  return (await clubFates(db, me.id)).map(({ heirId: _, ...fate }) => fate);
}

/**
 * Delete the signed-in member's account, once their password proves it is them (a wrong one: 400
 * with fieldErrors.password, counted as a sign-in failure). In one transaction: each club they own
 * passes to its heir (heirOf) or, with no one left, is deleted; the counters their likes, comments,
 * follows and memberships added to are taken back; then the member's row goes, and with it (foreign
 * keys cascade) their posts with those posts' comments, likes, shares, tags and media rows, their
 * comments, likes, follows, memberships, join requests, invites, sessions (every device is signed
 * out), password resets and idempotency keys. Shares they made stay as anonymous counts. Their username
 * is held for `USERNAME_HOLD_MS` (security-2 N18). Their media
 * files (uploads, avatars, and those of the posts of deleted clubs) are removed from storage once the
 * transaction has committed, never before.
 */
export async function deleteAccount(actor: Actor, input: AccountDeletionInput, options: { storage?: MediaStorage } = {}): Promise<void> {
  const row = await requireOwnPassword(actor, input.password, "password", WRONG_PASSWORD);
  const id = row.id;
  const { files, unfinished } = await writeTransaction(async (tx) => {
    if ((await tx.select({ id: users.id }).from(users).where(eq(users.id, id))).length === 0) throw unauthorized();
    const stored: MediaFiles[] = [];
    for (const fate of await clubFates(tx, id)) {
      if (fate.heirId === null) stored.push(...(await removeClub(tx, fate.id)));
      else
        await tx
          .update(clubMembers)
          .set({ role: "owner" })
          .where(and(eq(clubMembers.clubId, fate.id), eq(clubMembers.userId, fate.heirId)));
    }
    const myPosts = tx.select({ id: posts.id }).from(posts).where(eq(posts.authorId, id));
    stored.push(
      ...(await tx
        .select({ storageKey: media.storageKey, variants: media.variants })
        .from(media)
        .where(or(eq(media.ownerId, id), inArray(media.postId, myPosts)))),
    );
    await takeBackCounters(tx, id);
    // Their records go with the member (cascade); their bytes go right after the commit.
    const unfinished = await unfinishedResumableIds(tx, id);
    await tx.delete(users).where(eq(users.id, id));
    // Nobody else may take the name at once (security-2 N18).
    await holdUsername(tx, row.username);
    return { files: stored, unfinished };
  });
  await deleteMediaFiles(files, options.storage);
  await removeResumableBytes(unfinished);
}

/** The counters on other rows that the member's likes, comments, follows and memberships added to. */
async function takeBackCounters(tx: Queryable, id: number) {
  await tx
    .update(posts)
    .set({ likesCount: decrementCounter(posts.likesCount) })
    .where(and(ne(posts.authorId, id), inArray(posts.id, tx.select({ id: likes.postId }).from(likes).where(eq(likes.userId, id)))));
  // comments_count counts visible comments only (a hidden one was taken off when it was hidden).
  const mine = sql`(SELECT count(*) FROM comments c WHERE c.post_id = ${posts.id} AND c.author_id = ${id} AND c.hidden_at IS NULL)`;
  await tx
    .update(posts)
    .set({ commentsCount: sql`CASE WHEN ${posts.commentsCount} > ${mine} THEN ${posts.commentsCount} - ${mine} ELSE 0 END` })
    .where(
      and(ne(posts.authorId, id), inArray(posts.id, tx.select({ id: comments.postId }).from(comments).where(eq(comments.authorId, id)))),
    );
  await tx
    .update(users)
    .set({ followersCount: decrementCounter(users.followersCount) })
    .where(inArray(users.id, tx.select({ id: follows.followeeId }).from(follows).where(eq(follows.followerId, id))));
  await tx
    .update(users)
    .set({ followingCount: decrementCounter(users.followingCount) })
    .where(inArray(users.id, tx.select({ id: follows.followerId }).from(follows).where(eq(follows.followeeId, id))));
  await tx
    .update(clubs)
    .set({ memberCount: decrementCounter(clubs.memberCount) })
    .where(inArray(clubs.id, tx.select({ id: clubMembers.clubId }).from(clubMembers).where(eq(clubMembers.userId, id))));
}
