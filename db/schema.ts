/**
 * The tables, for the engine this process runs on (CONTRACT.md §9,
 * docs/decisions/0061-one-data-layer-two-engines.md). Models import them from here and never know
 * which engine answers: on the SQLite file they are db/schema-sqlite.ts's, with DATABASE_URL set to
 * a postgres:// address they are db/schema-pg.ts's, which have the same names, columns and value
 * types (tests/integration/schema-parity.test.ts holds the two together). Types and constants come
 * from the SQLite file, the one the models are typed against.
 */
import * as pgTables from "./schema-pg";
import * as sqliteTables from "./schema-sqlite";

export {
  CASE_STATUSES,
  CLUB_ROLES,
  MEDIA_KINDS,
  EMAIL_MODES,
  MODERATION_ACTIONS,
  REMOVERS,
  NOTIFICATION_KINDS,
  POST_TYPES,
  REPORT_REASONS,
  REPORT_TARGETS,
  REQUEST_STATUSES,
  SITE_ROLES,
} from "./schema-sqlite";
export type {
  CaseStatus,
  ClubRole,
  LinkMetadata,
  MediaKind,
  ModerationAction,
  Remover,
  EmailMode,
  NotificationKind,
  PostType,
  ReportReason,
  ReportTarget,
  RequestStatus,
  SiteRole,
  StoredReply,
} from "./schema-sqlite";

const onPostgres = /^postgres(?:ql)?:\/\//.test(process.env.DATABASE_URL ?? "");

type Tables = typeof sqliteTables;
const pick = <K extends keyof Tables & keyof typeof pgTables>(name: K): Tables[K] =>
  (onPostgres ? pgTables[name] : sqliteTables[name]) as unknown as Tables[K];

export const users = pick("users");
export const clubs = pick("clubs");
export const posts = pick("posts");
export const postTags = pick("postTags");
export const media = pick("media");
export const likes = pick("likes");
export const comments = pick("comments");
export const shares = pick("shares");
export const follows = pick("follows");
export const clubMembers = pick("clubMembers");
export const joinRequests = pick("joinRequests");
export const invites = pick("invites");
export const rateLimits = pick("rateLimits");
export const sessions = pick("sessions");
export const passwordResets = pick("passwordResets");
export const releasedUsernames = pick("releasedUsernames");
export const linkPreviews = pick("linkPreviews");
export const idempotencyKeys = pick("idempotencyKeys");
export const resumableUploads = pick("resumableUploads");
export const uploadLocks = pick("uploadLocks");
export const moderationCases = pick("moderationCases");
export const reports = pick("reports");
export const moderationLog = pick("moderationLog");
export const blocks = pick("blocks");
export const notifications = pick("notifications");
export const notificationSettings = pick("notificationSettings");
export const pushSubscriptions = pick("pushSubscriptions");
export const siteKeys = pick("siteKeys");
export const notificationFanouts = pick("notificationFanouts");
export const notificationDigests = pick("notificationDigests");
export const notificationActs = pick("notificationActs");
export const jobRuns = pick("jobRuns");
