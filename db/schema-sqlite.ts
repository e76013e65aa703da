/**
 * The whole data model of Whitetail Pulse.
 *
 * Conventions:
 * - Times are integer milliseconds since the epoch (`timestamp_ms`), so sorting and cursors are cheap.
 * - Counters that lists show (likes, comments, shares, followers, members …) are stored on the row and
 *   updated in the same transaction as the change they count, so no list counts rows per request.
 * - Every list a page shows has an index that serves both its filter and its sort (see the
 *   `EXPLAIN QUERY PLAN` checks in the benchmark). Home-feed indexes are partial on `club_id IS NULL`:
 *   club posts live in their club (docs/decisions/0006-club-posts-stay-in-clubs.md).
 * - The FTS5 table `posts_fts` and its triggers are created by a hand-written migration
 *   (db/migrations/0001_posts_fts.sql) because drizzle-kit does not model virtual tables.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const POST_TYPES = ["article", "opinion", "video", "podcast"] as const;
export type PostType = (typeof POST_TYPES)[number];
export const MEDIA_KINDS = ["image", "video", "audio"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export const CLUB_ROLES = ["owner", "admin", "member"] as const;
export type ClubRole = (typeof CLUB_ROLES)[number];
export const REQUEST_STATUSES = ["pending", "approved", "rejected"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
/** Site roles (CONTRACT.md §8): moderators and admins act site-wide; only admins act on moderators. */
export const SITE_ROLES = ["member", "moderator", "admin"] as const;
export type SiteRole = (typeof SITE_ROLES)[number];
/** What a report or a moderation case is about. */
export const REPORT_TARGETS = ["post", "comment", "user", "club"] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];
export const REPORT_REASONS = ["spam", "harassment", "illegal", "off_topic", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const CASE_STATUSES = ["open", "closed"] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
/** Every decision the moderation log keeps (CONTRACT.md §8 "Log"). */
export const MODERATION_ACTIONS = [
  "remove",
  "restore",
  "hide",
  "dismiss",
  "suspend",
  "unsuspend",
  "set_role",
  "remove_member",
  "purge",
  "dismiss_reports",
  /** A post marked, or no longer marked, as a graphic photo by staff (CONTRACT.md §14 "Graphic photos"). */
  "mark_sensitive",
  "unmark_sensitive",
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
/** Who removed a post or comment: site staff, or the club's own staff. */
export const REMOVERS = ["site", "club"] as const;
export type Remover = (typeof REMOVERS)[number];

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    displayName: text("display_name").notNull(),
    /** Stored trimmed and lower-cased. Never sent to anyone but its owner. */
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    avatar: text("avatar"),
    bio: text("bio"),
    location: text("location"),
    /** Settings › Profile: the member's home county, a 5-digit FIPS code (null: none), for /hunt-day (CONTRACT.md §14). Owner only. */
    homeCounty: text("home_county"),
    postsCount: integer("posts_count").notNull().default(0),
    followersCount: integer("followers_count").notNull().default(0),
    followingCount: integer("following_count").notNull().default(0),
    /** Settings › Privacy: images as tap-to-load placeholders (CONTRACT.md §6 "Data saver"). */
    dataSaver: integer("data_saver", { mode: "boolean" }).notNull().default(false),
    /** Settings › Privacy: graphic photos (posts marked `sensitive`) wait behind "Show photo" (CONTRACT.md §14). */
    blurGraphic: integer("blur_graphic", { mode: "boolean" }).notNull().default(true),
    /** Site role (CONTRACT.md §8), set by the operator with `npm run role`. */
    role: text("role", { enum: SITE_ROLES }).notNull().default("member"),
    /** Suspended since (null: not suspended), until (null: until lifted), and why. */
    suspendedAt: integer("suspended_at", { mode: "timestamp_ms" }),
    suspendedUntil: integer("suspended_until", { mode: "timestamp_ms" }),
    suspensionReason: text("suspension_reason"),
    createdAt: createdAt(),
  },
  (t) => [
    // Usernames are unique regardless of case ("BuckMaster" and "buckmaster" are the same member).
    uniqueIndex("users_username_nocase").on(sql`${t.username} COLLATE NOCASE`),
    uniqueIndex("users_email_unique").on(t.email),
  ],
);

export const clubs = sqliteTable(
  "clubs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    imageUrl: text("image_url"),
    location: text("location"),
    isPrivate: integer("is_private", { mode: "boolean" }).notNull().default(true),
    /** null = unlimited. */
    memberLimit: integer("member_limit"),
    tags: text("tags", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    rules: text("rules"),
    creatorId: integer("creator_id").references(() => users.id, { onDelete: "set null" }),
    memberCount: integer("member_count").notNull().default(0),
    /**
     * The IANA zone the club's hunts are entered and told in without JavaScript (issue 44, ADR 0089);
     * null until staff first make an event, which sets it from their `tz` cookie (else UTC).
     */
    timeZone: text("time_zone"),
    createdAt: createdAt(),
  },
  (t) => [index("clubs_created").on(t.createdAt, t.id), index("clubs_private_created").on(t.isPrivate, t.createdAt, t.id)],
);

export type LinkMetadata = {
  title?: string | null;
  description?: string | null;
  image?: string | null;
  siteName?: string | null;
  domain?: string | null;
  logo?: string | null;
  error?: string;
};

export const posts = sqliteTable(
  "posts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clubId: integer("club_id").references((): AnySQLiteColumn => clubs.id, { onDelete: "cascade" }),
    type: text("type", { enum: POST_TYPES }).notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    mediaUrl: text("media_url"),
    urlMetadata: text("url_metadata", { mode: "json" }).$type<LinkMetadata>(),
    /** Normalised (trimmed, lower-cased, unique) tags; null when there are none. */
    tags: text("tags", { mode: "json" }).$type<string[]>(),
    likesCount: integer("likes_count").notNull().default(0),
    commentsCount: integer("comments_count").notNull().default(0),
    sharesCount: integer("shares_count").notNull().default(0),
    /**
     * Hidden from everyone but its author since (CONTRACT.md §8): removed by staff (removalReason set)
     * or hidden after AUTO_HIDE_REPORTS reports until a moderator decides (removalReason null).
     */
    hiddenAt: integer("hidden_at", { mode: "timestamp_ms" }),
    removalReason: text("removal_reason"),
    /** Who removed it: site staff ("site") or the club's staff ("club"); only site staff undo a site removal (CONTRACT.md §12, security-3 P3). Null when not removed by staff. */
    removedBy: text("removed_by", { enum: REMOVERS }),
    /** A graphic photo (CONTRACT.md §14): its media wait behind "Show photo"; feeds and pushes carry no image of it. Its author or staff set it. */
    sensitive: integer("sensitive", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // Home feed (club_id IS NULL), one index per sort, with and without a type filter.
    index("posts_feed_recent")
      .on(t.createdAt, t.id)
      .where(sql`club_id IS NULL`),
    index("posts_feed_popular")
      .on(t.likesCount, t.id)
      .where(sql`club_id IS NULL`),
    index("posts_feed_discussed")
      .on(t.commentsCount, t.id)
      .where(sql`club_id IS NULL`),
    index("posts_feed_type_recent")
      .on(t.type, t.createdAt, t.id)
      .where(sql`club_id IS NULL`),
    index("posts_feed_type_popular")
      .on(t.type, t.likesCount, t.id)
      .where(sql`club_id IS NULL`),
    index("posts_feed_type_discussed")
      .on(t.type, t.commentsCount, t.id)
      .where(sql`club_id IS NULL`),
    // A member's posts and a club's posts, newest first.
    index("posts_author_recent").on(t.authorId, t.createdAt, t.id),
    index("posts_club_recent").on(t.clubId, t.createdAt, t.id),
  ],
);

/** One row per (post, tag) with a key that ignores case and spaces, for `#BowHunting` searches. */
export const postTags = sqliteTable(
  "post_tags",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    /** lower(tag) with every space removed: "Bow Hunting" -> "bowhunting". */
    key: text("key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.key] }), index("post_tags_key").on(t.key, t.postId)],
);

export const FIELD_REPORT_KINDS = ["sighting", "rut_sign", "harvest"] as const;
export type FieldReportKind = (typeof FIELD_REPORT_KINDS)[number];
export const RUT_PHASES = ["pre", "seeking", "chasing", "lockdown", "post"] as const;
export type RutPhase = (typeof RUT_PHASES)[number];

/**
 * A post's field report (CONTRACT.md §14, issue 45): what a member saw, where (a county, never finer)
 * and when. At most one per post, written and replaced with the post. `authorId` is the post's,
 * copied so the harvest log reads one index; `/api/pulse` counts a window of `observedOn` by county,
 * joined to the post for what a visitor may see (not hidden, not in a private club).
 */
export const fieldReports = sqliteTable(
  "field_reports",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: FIELD_REPORT_KINDS }).notNull(),
    /** A 5-digit US county FIPS code the site's county list knows. */
    county: text("county").notNull(),
    /** The day seen, YYYY-MM-DD, never after the day it was written. */
    observedOn: text("observed_on").notNull(),
    rutPhase: text("rut_phase", { enum: RUT_PHASES }),
    bucks: integer("bucks"),
    does: integer("does"),
    createdAt: createdAt(),
  },
  (t) => [
    // The key in the table's config keeps `postId` required on insert (an integer primary key column is a rowid alias).
    primaryKey({ columns: [t.postId] }),
    // The pulse: a window of days, by county, who reported (covering, so the count reads no table rows).
    index("field_reports_pulse").on(t.observedOn, t.county, t.authorId, t.postId),
    // A county's page: its reports in the window.
    index("field_reports_county").on(t.county, t.observedOn),
    // The harvest log: a member's own, newest seen first.
    index("field_reports_author").on(t.authorId, t.observedOn),
  ],
);

/** Files a member uploaded; attached to a post when the post is published. */
export const media = sqliteTable(
  "media",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    postId: integer("post_id").references(() => posts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MEDIA_KINDS }).notNull(),
    /** Storage key of the original (images: the largest stripped variant). */
    storageKey: text("storage_key").notNull(),
    url: text("url").notNull(),
    name: text("name").notNull(),
    mimeType: text("mime_type").notNull(),
    size: integer("size").notNull(),
    width: integer("width"),
    height: integer("height"),
    /**
     * Image variants, smallest first: [{ width, height, url, key, size }]. `size` (bytes) is on every
     * variant made since ADR 0036 and filled in for older ones by the variant backfill.
     */
    variants: text("variants", { mode: "json" }).$type<{ width: number; height: number; url: string; key: string; size?: number }[]>(),
    createdAt: createdAt(),
  },
  (t) => [index("media_post").on(t.postId), index("media_owner").on(t.ownerId, t.createdAt), uniqueIndex("media_url").on(t.url)],
);

export const likes = sqliteTable(
  "likes",
  {
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] }), index("likes_user").on(t.userId, t.postId)],
);

export const comments = sqliteTable(
  "comments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    /**
     * Hidden from everyone but its author since (CONTRACT.md §8): removed by staff (removalReason set)
     * or hidden after AUTO_HIDE_REPORTS reports until a moderator decides (removalReason null).
     */
    hiddenAt: integer("hidden_at", { mode: "timestamp_ms" }),
    removalReason: text("removal_reason"),
    /** Who removed it: site staff ("site") or the club's staff ("club"); only site staff undo a site removal (CONTRACT.md §12, security-3 P3). Null when not removed by staff. */
    removedBy: text("removed_by", { enum: REMOVERS }),
    createdAt: createdAt(),
  },
  (t) => [index("comments_post").on(t.postId, t.createdAt, t.id), index("comments_author").on(t.authorId)],
);

export const shares = sqliteTable(
  "shares",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("shares_post").on(t.postId)],
);

export const follows = sqliteTable(
  "follows",
  {
    followerId: integer("follower_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    followeeId: integer("followee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  // Both follow lists are keyset pages over (created_at, the other member): followers walk
  // follows_followee, following walks follows_follower (docs/decisions/0042-lists-in-pages.md).
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index("follows_followee").on(t.followeeId, t.createdAt, t.followerId),
    index("follows_follower").on(t.followerId, t.createdAt, t.followeeId),
  ],
);

export const clubMembers = sqliteTable(
  "club_members",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    clubId: integer("club_id")
      .notNull()
      .references(() => clubs.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: CLUB_ROLES }).notNull().default("member"),
    /** The member asked to hear of every new post in this club (CONTRACT.md §7 `club_post`, off by default). */
    notifyPosts: integer("notify_posts", { mode: "boolean" }).notNull().default(false),
    joinedAt: integer("joined_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [
    uniqueIndex("club_members_club_user").on(t.clubId, t.userId),
    index("club_members_club_joined").on(t.clubId, t.joinedAt),
    index("club_members_user").on(t.userId),
  ],
);

export const joinRequests = sqliteTable(
  "join_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    clubId: integer("club_id")
      .notNull()
      .references(() => clubs.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    message: text("message"),
    status: text("status", { enum: REQUEST_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // One request row per member and club; re-applying after a rejection reuses it.
    uniqueIndex("join_requests_club_user").on(t.clubId, t.userId),
    index("join_requests_club_status").on(t.clubId, t.status, t.createdAt),
  ],
);

/**
 * A member removed from a club by its staff is kept out of it (CONTRACT.md §12, security-3 P7): until
 * `until` (30 days on), joining and asking to join answer 409 with the date. An invite made by the
 * club's owner or an admin still admits them, and admitting them ends it.
 */
export const clubBans = sqliteTable(
  "club_bans",
  {
    clubId: integer("club_id")
      .notNull()
      .references(() => clubs.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    until: integer("until", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.userId] })],
);

export const invites = sqliteTable(
  "invites",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull(),
    clubId: integer("club_id")
      .notNull()
      .references(() => clubs.id, { onDelete: "cascade" }),
    createdById: integer("created_by_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** null = unlimited. */
    usesRemaining: integer("uses_remaining"),
    /** null = never expires. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("invites_code").on(t.code), index("invites_club").on(t.clubId, t.createdAt)],
);

/** Fixed-window counters shared by every process that opens the database (CONTRACT.md §1, §5). */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limits_window").on(t.windowStart)],
);

/**
 * Server-side sessions, one per sign-in (docs/decisions/0017-server-side-sessions.md). The cookie
 * holds the random token; only its SHA-256 is stored. `id` names a session in Settings › Security.
 * `expires_at` slides: every use moves it to 30 days on, written at most every few minutes.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** "Chrome on Android": from the User-Agent at sign-in. */
    device: text("device").notNull(),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("sessions_token_hash").on(t.tokenHash),
    index("sessions_user_seen").on(t.userId, t.lastSeenAt),
    index("sessions_expires").on(t.expiresAt),
  ],
);

/**
 * Sessions a suspension ended (ux-3 U7): only the token's hash, whose member, why and when, so that
 * the page a member already had open can say why they were signed out, once, instead of only
 * "Please sign in". Swept after the longest a session could have lived (30 days).
 */
export const endedSessions = sqliteTable(
  "ended_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: ["suspended"] }).notNull(),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("ended_sessions_user").on(t.userId), index("ended_sessions_ended").on(t.endedAt)],
);

/**
 * "Forgot password?" links (docs/decisions/0028-password-reset.md): one row per unused link, at most
 * one per member (a new request replaces the old). The link carries 256 random bits; only their
 * SHA-256 is stored. A row is deleted when it is used; an expired one reads as unknown.
 */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("password_resets_token_hash").on(t.tokenHash), uniqueIndex("password_resets_user").on(t.userId)],
);

/**
 * Usernames of deleted accounts, held for a while so nobody else can register one at once and pass as
 * the member who left (security-2 N18; `USERNAME_HOLD_MS` in user.server.ts). Stored as typed;
 * compared without case, like `users.username`.
 */
export const releasedUsernames = sqliteTable(
  "released_usernames",
  {
    username: text("username").notNull(),
    releasedAt: integer("released_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("released_usernames_nocase").on(sql`${t.username} COLLATE NOCASE`)],
);

/** Link previews, cached per URL. */
export const linkPreviews = sqliteTable("link_previews", {
  url: text("url").primaryKey(),
  data: text("data", { mode: "json" }).$type<LinkMetadata>().notNull(),
  fetchedAt: integer("fetched_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Idempotency keys (CONTRACT.md §6, docs/decisions/0030-idempotency-keys.md): the first answer to a
 * member's request that carried a key, replayed to a repeat with the same key for 24 hours.
 * `status` is null while the first request is still running (a concurrent repeat gets 409).
 * `fingerprint` is the method and path the key was first used with.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    status: integer("status"),
    /** `{ headers: [name, value][], body }` of the first answer, once it is known. */
    response: text("response", { mode: "json" }).$type<StoredReply>(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);

export type StoredReply = { headers: [string, string][]; body: string };

/**
 * What was shared into the site from a phone's share sheet (CONTRACT.md §14 "Sharing from the phone",
 * docs/decisions/0092-share-target.md), kept at most an hour until the create page takes it. A
 * member's share names their uploads (`files[].url`, ordinary `media` rows); a visitor's share holds
 * the files as sent, in storage under `held/` (never served), with no owner until the visitor signs in
 * and claims it by its random `id`. The prune job removes expired rows and their held files.
 */
export const incomingShares = sqliteTable(
  "incoming_shares",
  {
    id: text("id").primaryKey(),
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "cascade" }),
    title: text("title"),
    text: text("text"),
    url: text("url"),
    /** A member's: `{ url }` of each upload. A visitor's: `{ key, name, size }` of each held file. */
    files: text("files", { mode: "json" }).$type<IncomingShareFile[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("incoming_shares_created").on(t.createdAt)],
);

export type IncomingShareFile = { url: string } | { key: string; name: string; size: number };

/**
 * Resumable (tus) uploads in progress (docs/decisions/0035-resumable-uploads.md): who started each
 * one, so only they may continue, inspect or cancel it, and when, so an unfinished one expires. The
 * bytes live in the tus store (a folder beside UPLOAD_DIR, or the S3 bucket); once the last byte is in,
 * the file goes through the same pipeline as /api/upload and `mediaId` names the stored media.
 */
export const resumableUploads = sqliteTable(
  "resumable_uploads",
  {
    id: text("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Set while the finished upload is being processed, so a repeated last PATCH does it once. */
    finishing: integer("finishing", { mode: "boolean" }).notNull().default(false),
    mediaId: integer("media_id").references(() => media.id, { onDelete: "set null" }),
    /**
     * The bytes the upload declared (`Upload-Length`; the most a file may be when it defers its
     * length), so a member's unfinished bytes can be capped (CONTRACT.md §10, security-2 N2).
     */
    length: integer("length").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("resumable_uploads_owner").on(t.ownerId), index("resumable_uploads_created").on(t.createdAt)],
);

/**
 * Who writes each resumable upload right now (docs/decisions/0035-resumable-uploads.md, issue 25): a
 * lease shared by every app process on this database, so two PATCHes of one upload never write at
 * once even when they reach different processes or machines. `holder` names the lock (process and
 * request); the holder renews `expiresAt` while it writes, so a crashed holder's lease runs out.
 * A request that finds the upload held sets `releaseRequestedAt`, and the holder, which watches its
 * row, stops its request and unlocks (app/utils/media/upload-lock.server.ts).
 */
export const uploadLocks = sqliteTable("upload_locks", {
  uploadId: text("upload_id").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  releaseRequestedAt: integer("release_requested_at", { mode: "timestamp_ms" }),
});

/**
 * One moderation case per reported target while it is open (CONTRACT.md §8 "Queue"): the reports
 * on it, the text as first reported, and the decision. No foreign key to the target, so a case
 * outlives what it was about. `clubId` puts a club's content in its staff's queue.
 */
export const moderationCases = sqliteTable(
  "moderation_cases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    targetType: text("target_type", { enum: REPORT_TARGETS }).notNull(),
    targetId: integer("target_id").notNull(),
    clubId: integer("club_id"),
    /** The member the target belongs to (the author, the member reported, the club's owner). */
    subjectId: integer("subject_id").references(() => users.id, { onDelete: "set null" }),
    snapshot: text("snapshot").notNull(),
    status: text("status", { enum: CASE_STATUSES }).notNull().default("open"),
    createdAt: createdAt(),
    closedAt: integer("closed_at", { mode: "timestamp_ms" }),
    /** How a closed case was decided (the log's action), and by whom (the log's actor name); null before 2026-11-29. */
    decision: text("decision", { enum: MODERATION_ACTIONS }),
    decidedBy: text("decided_by"),
  },
  (t) => [
    uniqueIndex("moderation_cases_open_target")
      .on(t.targetType, t.targetId)
      .where(sql`status = 'open'`),
    index("moderation_cases_status").on(t.status, t.createdAt, t.id),
    index("moderation_cases_club").on(t.clubId, t.status, t.createdAt, t.id),
    // A member's staff page counts the reports their posts and comments drew (ux-3 U23).
    index("moderation_cases_subject").on(t.subjectId),
  ],
);

/** One member's report of a target; a member reports a target once (CONTRACT.md §8: again is 409). */
export const reports = sqliteTable(
  "reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    caseId: integer("case_id")
      .notNull()
      .references(() => moderationCases.id, { onDelete: "cascade" }),
    targetType: text("target_type", { enum: REPORT_TARGETS }).notNull(),
    targetId: integer("target_id").notNull(),
    reporterId: integer("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    details: text("details"),
    /** The text as this member saw it when they reported it. */
    snapshot: text("snapshot").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("reports_reporter_target").on(t.reporterId, t.targetType, t.targetId),
    index("reports_case").on(t.caseId, t.createdAt),
    index("reports_target").on(t.targetType, t.targetId),
  ],
);

/**
 * Every moderation decision (CONTRACT.md §8 "Log"). Names are copied in and nothing references
 * users or content, so an entry stays when the member or the content is deleted.
 */
export const moderationLog = sqliteTable(
  "moderation_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** null: the site itself (auto-hide after reports). */
    actorId: integer("actor_id"),
    actorName: text("actor_name").notNull(),
    action: text("action", { enum: MODERATION_ACTIONS }).notNull(),
    targetType: text("target_type", { enum: REPORT_TARGETS }).notNull(),
    targetId: integer("target_id").notNull(),
    /** What the target was called when the decision was made (a title, a username, a club's name). */
    targetLabel: text("target_label").notNull(),
    clubId: integer("club_id"),
    reason: text("reason"),
    /**
     * Whose the target was when the decision was made (a post's or comment's author, the member
     * themself; null for a club): a member's staff page lists every decision about them and their
     * content (ux-3 U23). A copied id, like the names: no reference, so it outlives the content.
     */
    subjectId: integer("subject_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("moderation_log_recent").on(t.createdAt, t.id),
    index("moderation_log_club").on(t.clubId, t.createdAt, t.id),
    index("moderation_log_subject").on(t.subjectId, t.createdAt, t.id),
  ],
);

/** A member's blocks (CONTRACT.md §8 "Blocks"). */
export const blocks = sqliteTable(
  "blocks",
  {
    blockerId: integer("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: integer("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index("blocks_blocked").on(t.blockedId, t.blockerId)],
);

/** What notifies a member (CONTRACT.md §7's table). */
export const NOTIFICATION_KINDS = [
  "comment",
  "mention",
  "like",
  "follow",
  "join_request",
  "request_approved",
  "request_rejected",
  "invite_joined",
  "club_post",
  "moderation",
  "report",
  "club_event",
  "event_reminder",
  "event_cancelled",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const EMAIL_MODES = ["off", "instant", "daily", "weekly"] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

/**
 * One row per recipient per event (CONTRACT.md §7, docs/decisions/0064-notifications.md). Likes on a
 * post are one row while it is unread (`notifications_like_group`): a new like moves it up, names the
 * newest liker and counts them all. `sentAt` is null until the instant mail and push were handled, so
 * a restart finds what is still owed; the delivery's lease, attempts and per-channel marks sit beside it.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "cascade" }),
    actorCount: integer("actor_count").notNull().default(1),
    postId: integer("post_id").references(() => posts.id, { onDelete: "cascade" }),
    commentId: integer("comment_id").references(() => comments.id, { onDelete: "cascade" }),
    clubId: integer("club_id").references(() => clubs.id, { onDelete: "cascade" }),
    /** `moderation`: "removed" or "restored"; `report`: what was reported (post, comment, user, club); otherwise null. */
    detail: text("detail"),
    /** `moderation`: the reason the author is shown; `report`: the first report's reason. */
    reason: text("reason"),
    /** `report`: the case staff are told of (ux-3 U23); one notice per case and staff member. */
    caseId: integer("case_id").references(() => moderationCases.id, { onDelete: "cascade" }),
    /** `club_event`, `event_reminder`, `event_cancelled`: the club hunt it is about (issue 44). */
    eventId: integer("event_id").references((): AnySQLiteColumn => clubEvents.id, { onDelete: "cascade" }),
    readAt: integer("read_at", { mode: "timestamp_ms" }),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    /** The delivery's marks, one per channel (ADR 0069): pushed, mailed; `sentAt` once both are settled. */
    pushedAt: integer("pushed_at", { mode: "timestamp_ms" }),
    mailedAt: integer("mailed_at", { mode: "timestamp_ms" }),
    /** The delivery's lease: a process that died holding it leaves the row to be taken again after this. */
    claimedUntil: integer("claimed_until", { mode: "timestamp_ms" }),
    /** Tries of the mail so far, and when the next may go (capped exponential backoff). */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    /** Given up after MAX_ATTEMPTS (counted, never retried again). */
    failedAt: integer("failed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_user_recent").on(t.userId, t.id),
    // The bell's count reads the post and kind of each unread row here, to check the member may
    // still read it (CONTRACT.md §11), without leaving the index (read_at too: SQLite counts the
    // partial index as covering only when it holds every column the query names).
    // club_id: a `report` notice counts only while its recipient still staffs the case's club or the site.
    index("notifications_unread")
      .on(t.userId, t.id, t.postId, t.kind, t.readAt, t.clubId)
      .where(sql`read_at IS NULL`),
    index("notifications_unsent")
      .on(t.id)
      .where(sql`sent_at IS NULL`),
    // Deliveries given up (counted by /metrics and `npm run jobs`): few, and found without a scan.
    index("notifications_failed")
      .on(t.id)
      .where(sql`failed_at IS NOT NULL`),
    uniqueIndex("notifications_like_group")
      .on(t.userId, t.postId)
      .where(sql`kind = 'like' AND read_at IS NULL`),
    index("notifications_post").on(t.postId),
    index("notifications_comment").on(t.commentId),
    uniqueIndex("notifications_event")
      .on(t.eventId, t.userId, t.kind)
      .where(sql`event_id IS NOT NULL`),
    uniqueIndex("notifications_case")
      .on(t.caseId, t.userId)
      .where(sql`case_id IS NOT NULL`),
  ],
);

/** A member's notification choices (CONTRACT.md §7 Settings › Notifications); no row: the defaults. */
export const notificationSettings = sqliteTable(
  "notification_settings",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The kinds turned off in the app (every kind but `club_post` is on by default). */
    inAppOff: text("in_app_off", { mode: "json" })
      .$type<NotificationKind[]>()
      .notNull()
      .default(sql`'[]'`),
    email: text("email", { enum: EMAIL_MODES }).notNull().default("daily"),
    push: integer("push", { mode: "boolean" }).notNull().default(false),
    /** The personal token of private clubs' Atom feeds (replaceable; null until first made). */
    feedToken: text("feed_token").unique(),
    /** When the last digest was sent: the next one carries what is unread and newer. */
    digestAt: integer("digest_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  // The key in the table's config keeps `userId` required on insert (an integer primary key column is a rowid alias).
  (t) => [primaryKey({ columns: [t.userId] })],
);

/** A browser's push subscription (CONTRACT.md §7 "Web push"). */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: createdAt(),
    /**
     * The session the browser was signed in with when it subscribed: ending that session (sign out,
     * Settings › Security, a password change, expiry) deletes the subscription, so a shared browser
     * stops getting the member's pushes once they sign out (issue 26). Null only for rows from
     * before this column.
     */
    sessionId: integer("session_id").references(() => sessions.id, { onDelete: "cascade" }),
  },
  (t) => [index("push_subscriptions_user").on(t.userId), index("push_subscriptions_session").on(t.sessionId)],
);

/** Keys the site makes once and keeps (the VAPID pair of web push). */
export const siteKeys = sqliteTable("site_keys", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

/**
 * Notifications owed to many members (a club post to the members who asked for them), worked off the
 * request in batches. `cursor` is the last member id done, moved in the same transaction as the
 * batch's rows, so a restart goes on where it stopped and nobody hears twice.
 */
export const notificationFanouts = sqliteTable(
  "notification_fanouts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    postId: integer("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    clubId: integer("club_id")
      .notNull()
      .references(() => clubs.id, { onDelete: "cascade" }),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "cascade" }),
    cursor: integer("cursor").notNull().default(0),
    createdAt: createdAt(),
    doneAt: integer("done_at", { mode: "timestamp_ms" }),
    /** Failed batches so far, when the next try may go (capped exponential backoff), and given up (ADR 0069). */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    failedAt: integer("failed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("notification_fanouts_pending")
      .on(t.id)
      .where(sql`done_at IS NULL`),
  ],
);

/**
 * A member's daily or weekly digest as a job (issue 38, ADR 0072): queued when it falls due, in the
 * transaction that moves the member's `digestAt` to `until`, and sent by a run that leases it
 * (`claimedUntil`). It lists what was unread between `since` and `until` and still is when it goes;
 * its Message-ID is made from the member and `until`, so a crash between the send and `sentAt`
 * repeats the same message. A refused mail is tried again with capped exponential backoff and
 * given up (`failedAt`) after its attempts. Sent rows are pruned after a month. Bookkeeping: never
 * moves the data version.
 */
export const notificationDigests = sqliteTable(
  "notification_digests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mode: text("mode", { enum: ["daily", "weekly"] }).notNull(),
    since: integer("since", { mode: "timestamp_ms" }).notNull(),
    until: integer("until", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
    claimedUntil: integer("claimed_until", { mode: "timestamp_ms" }),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    /** When it went, or was settled with nothing to send (all read meanwhile, email turned off). */
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    failedAt: integer("failed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("notification_digests_user_until").on(t.userId, t.until),
    index("notification_digests_pending")
      .on(t.id)
      .where(sql`sent_at IS NULL AND failed_at IS NULL`),
  ],
);

/**
 * The server's background jobs, one row each (app/server/jobs.server.ts, ADR 0070): how often each
 * ran and failed, and its last run, for `npm run jobs` and /metrics. Written by every process that
 * runs jobs after each run; bookkeeping, never moving the data version.
 */
export const jobRuns = sqliteTable("job_runs", {
  name: text("name").primaryKey(),
  runs: integer("runs").notNull().default(0),
  failures: integer("failures").notNull().default(0),
  lastStartedAt: integer("last_started_at", { mode: "timestamp_ms" }),
  lastFinishedAt: integer("last_finished_at", { mode: "timestamp_ms" }),
  lastDurationMs: integer("last_duration_ms"),
  lastError: text("last_error"),
  lastFailedAt: integer("last_failed_at", { mode: "timestamp_ms" }),
});

/**
 * Who was told of which act, and when (CONTRACT.md §11, no floods): a follow, a like, a mention or a
 * join request undone and done again within 24 hours tells its recipient once. `subject` names what
 * the act is about ("post:12", "comment:7", "club:3", "" for a follow). Bookkeeping, not content: it
 * never moves the data version; rows older than a day are pruned.
 */
export const notificationActs = sqliteTable(
  "notification_acts",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NotificationKind>().notNull(),
    actorId: integer("actor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    toldAt: integer("told_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.actorId, t.subject] }), index("notification_acts_told").on(t.toldAt)],
);

export const RSVP_STATUSES = ["going", "maybe", "no"] as const;
export type RsvpStatus = (typeof RSVP_STATUSES)[number];

/**
 * A club hunt (issue 44, CONTRACT.md §14 "Club hunts", ADR 0089): made, edited and cancelled by the
 * club's owner and admins. Times are instants (milliseconds); the club's `timeZone` only tells how a
 * form without JavaScript reads them. Cancelling keeps the row (`cancelledAt`) so calendars that
 * subscribed see STATUS:CANCELLED under the same UID. `going` and `maybe` are counters kept in the
 * RSVP's transaction.
 */
export const clubEvents = sqliteTable(
  "club_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    clubId: integer("club_id")
      .notNull()
      .references(() => clubs.id, { onDelete: "cascade" }),
    createdById: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    location: text("location"),
    startsAt: integer("starts_at", { mode: "timestamp_ms" }).notNull(),
    endsAt: integer("ends_at", { mode: "timestamp_ms" }),
    cancelledAt: integer("cancelled_at", { mode: "timestamp_ms" }),
    going: integer("going").notNull().default(0),
    maybe: integer("maybe").notNull().default(0),
    /** Moves with every edit: the calendar feed's SEQUENCE and LAST-MODIFIED. */
    sequence: integer("sequence").notNull().default(0),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
    createdAt: createdAt(),
  },
  (t) => [index("club_events_club_starts").on(t.clubId, t.startsAt, t.id)],
);

/** A member's answer to a club hunt: one row per member and event. */
export const clubEventRsvps = sqliteTable(
  "club_event_rsvps",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => clubEvents.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: RSVP_STATUSES }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] }), index("club_event_rsvps_event_status").on(t.eventId, t.status, t.updatedAt)],
);

export const EVENT_JOB_KINDS = ["announce", "reminder", "cancel"] as const;
export type EventJobKind = (typeof EVENT_JOB_KINDS)[number];

/**
 * The notifications a club hunt owes, as rows (CONTRACT.md §11, issue 44): `announce` (to every
 * member, `club_event`), `reminder` (24 hours before, to going and maybe, `event_reminder`) and
 * `cancel` (`event_cancelled`), one row per event and kind, so each is sent once. Written in the
 * event's transaction; a worker tells the recipients in batches past `cursor` (the last member id
 * done), each batch in one transaction with the cursor, so a restart goes on where it stopped.
 * Bookkeeping: never moves the data version.
 */
export const clubEventJobs = sqliteTable(
  "club_event_jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => clubEvents.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: EVENT_JOB_KINDS }).notNull(),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    dueAt: integer("due_at", { mode: "timestamp_ms" }).notNull(),
    cursor: integer("cursor").notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }),
    doneAt: integer("done_at", { mode: "timestamp_ms" }),
    failedAt: integer("failed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("club_event_jobs_event_kind").on(t.eventId, t.kind),
    index("club_event_jobs_pending")
      .on(t.dueAt, t.id)
      .where(sql`done_at IS NULL`),
  ],
);
