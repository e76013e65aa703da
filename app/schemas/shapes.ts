import type { ClubRole, LinkMetadata, ModerationAction, ReportReason, ReportTarget, SiteRole } from "#db/schema";
import type { UploadedFile } from "./media-options";
import type { PostType } from "./post-options";
import type { FieldReportKind, RutPhase } from "./field-report-options";

/**
 * The shapes the domain returns and pages show (SPEC.md §3): plain data, shared by the models that
 * build them, the routes that send them and the components that draw them. Types only.
 */

/** SPEC.md §3 Post author. */
export type PostAuthor = { id: number; username: string; displayName: string; avatar: string | null };

/** The club a post belongs to, as its card names it. */
export type PostClub = { id: number; name: string };

/** SPEC.md §3 Post. */
export type Post = {
  id: number;
  title: string;
  content: string;
  type: PostType;
  mediaUrl: string | null;
  urlMetadata: LinkMetadata | null;
  tags: string[] | null;
  clubId: number | null;
  /** The club it was posted in (beyond SPEC: cards outside the club name it), else null. */
  club: PostClub | null;
  createdAt: string;
  author: PostAuthor;
  likes: number;
  commentsCount: number;
  shares: number;
  isLiked: boolean;
  uploadedFiles: UploadedFile[];
  /** A graphic photo (CONTRACT.md §14): its media wait behind "Show photo" for visitors and members who blur them. */
  sensitive: boolean;
  /** What its author saw in the field, where and when (CONTRACT.md §14), or null. */
  field: FieldReport | null;
  /** Only on a hidden post, which only its author and the staff who may restore it see (CONTRACT.md §8). */
  hidden?: HiddenNotice;
  /** Only when its text @mentions members who exist: their usernames, shown as links (CONTRACT.md §7, mention.server.ts). */
  mentions?: string[];
};

/** A post's field report as answers show it (CONTRACT.md §14). */
export type FieldReport = {
  kind: FieldReportKind;
  county: { fips: string; name: string; state: string };
  observedOn: string;
  rutPhase: RutPhase | null;
  bucks: number | null;
  does: number | null;
};

/**
 * Why a post or comment is hidden from everyone else: removed by a moderator with a reason (`by`:
 * site staff or the club's own staff), or (reason null) hidden after reports while a moderator
 * looks at it.
 */
export type HiddenNotice = { reason: string | null; by?: "site" | "club" };

/** SPEC.md §3 Comment. */
export type Comment = {
  id: number;
  content: string;
  createdAt: string;
  author: PostAuthor;
  hidden?: HiddenNotice;
  /** As on a Post: the members its text @mentions who exist, when there are any. */
  mentions?: string[];
};

export type RequestStatusView = "pending" | "rejected" | "none";

/** SPEC.md §3 Club, with the caller's isMember / userRole / requestStatus. */
export type Club = {
  id: number;
  name: string;
  description: string;
  imageUrl: string | null;
  location: string | null;
  isPrivate: boolean;
  memberLimit: number | null;
  tags: string[];
  rules: string | null;
  creator: { id: number; username: string; displayName: string; avatar: string | null } | null;
  createdAt: string;
  memberCount: number;
  isMember: boolean;
  userRole: ClubRole | null;
  requestStatus: RequestStatusView;
};

/** An active invite as the Invites tab lists it. */
export type ClubInvite = {
  id: number;
  inviteCode: string;
  usesRemaining: number | null;
  expiresAt: string | null;
  createdAt: string;
  createdBy: { id: number; username: string; displayName: string };
  canRevoke: boolean;
};

/** A member in a followers / following list, with whether the viewer follows them. */
export type FollowListEntry = {
  id: number;
  username: string;
  displayName: string;
  avatar: string | null;
  bio: string | null;
  followedAt: string;
  isFollowing: boolean;
};

export type FollowPage = { users: FollowListEntry[]; nextCursor: string | null };

/** SPEC.md §3 User, as anyone may see it: never the email, hash or session version. */
export type PublicUser = {
  id: number;
  username: string;
  displayName: string;
  avatar: string | null;
  bio: string | null;
  location: string | null;
  createdAt: string;
  postsCount: number;
  followersCount: number;
  followingCount: number;
  /** Site role (CONTRACT.md §8): member, moderator or admin. */
  role: SiteRole;
};

/** The signed-in member's own view adds the email. */
export type SelfUser = PublicUser & { email: string };

/**
 * A profile as the viewer may see it: the public fields, the email only when the viewer is the
 * member, and whether the viewer follows them.
 */
export type Profile = PublicUser & { email?: string; isFollowing: boolean };

/** One of the member's own sessions, as Settings › Security lists it (`current`: the device asking). */
export type ActiveSession = { id: number; device: string; createdAt: string; lastSeenAt: string; current: boolean };

/**
 * What happens to a club the member owns when they delete their account (Settings › Privacy): it
 * passes to `heir` (its longest-standing admin, else longest-standing member), or is deleted (null).
 */
export type OwnedClubFate = { id: number; name: string; heir: { username: string; displayName: string; role: "admin" | "member" } | null };

/** One moderation decision as `GET /api/moderation/log` lists it (CONTRACT.md §8 "Log"). */
export type ModerationLogEntry = {
  id: number;
  /** The moderator's username, or the site's name for a decision it made itself (auto-hide). */
  actor: string;
  action: ModerationAction;
  targetType: ReportTarget;
  targetId: number;
  /** What the target was called when the decision was made. */
  targetLabel: string;
  clubId: number | null;
  reason: string | null;
  createdAt: string;
};

export type ModerationLogPage = { entries: ModerationLogEntry[]; nextCursor: string | null };

/** One report in a queue entry: never who made it (CONTRACT.md §8). */
export type QueueReport = { reason: ReportReason; details: string | null; createdAt: string };
