import { and, eq, inArray, notInArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { joinRequests, reports, users } from "#db/schema";
import { setClubRole } from "#tests/fixtures/moderation";
import { blockMember } from "~/models/members/block.server";
import { addComment } from "~/models/posts/comment.server";
import { removeContent } from "~/models/moderation/moderation-removal.server";
import { createPost } from "~/models/posts/post.server";
import { reportTarget } from "~/models/moderation/report.server";
import { suspendMember } from "~/models/moderation/suspension.server";
import * as apiBlocks from "~/routes/api.auth.blocks";
import * as apiClubMember from "~/routes/api.clubs.$id.members.$username";
import * as apiClubRequest from "~/routes/api.clubs.$id.requests.$requestId";
import * as apiClubRequests from "~/routes/api.clubs.$id.requests";
import * as apiRemoveComment from "~/routes/api.moderation.comments.$id.remove";
import * as apiRestoreComment from "~/routes/api.moderation.comments.$id.restore";
import * as apiLog from "~/routes/api.moderation.log";
import * as apiRemovePost from "~/routes/api.moderation.posts.$id.remove";
import * as apiRestorePost from "~/routes/api.moderation.posts.$id.restore";
import * as apiCase from "~/routes/api.moderation.reports.$id";
import * as apiQueue from "~/routes/api.moderation.reports";
import * as apiSuspend from "~/routes/api.moderation.users.$username.suspend";
import * as apiUnsuspend from "~/routes/api.moderation.users.$username.unsuspend";
import * as apiReports from "~/routes/api.reports";
import * as apiBlock from "~/routes/api.users.$username.block";
import * as clubMembersPage from "~/routes/clubs.$id/tabs/members";
import * as clubRequestsPage from "~/routes/clubs.$id/tabs/requests";
import * as moderationPage from "~/routes/moderation/route";
import * as memberStaffPage from "~/routes/moderation_.members.$username/route";
import * as moderatePage from "~/routes/post.$id_.moderate";
import * as profilePage from "~/routes/profile.$username/route";
import * as reportPage from "~/routes/report/route";
import * as settingsPage from "~/routes/settings/route";
import { db, first, queryRows } from "~/utils/db.server";
import { commitUserSession } from "~/web/session.server";
import { call, makeRequest } from "../fixtures/members";
import { addMember, makeClub, postInput } from "../fixtures/posts";

/**
 * The authorization matrix of issue 27 (CONTRACT.md §8): every moderation and block call of the JSON
 * surface and every page loader and action that does the same, as each of eight roles: a visitor, an
 * unrelated member, the author of the reported post and comment (also the member that member-directed
 * calls act on), a member, an admin and the owner of the post's (public) club, a site moderator and a
 * site admin. A refusal must change nothing in any table a moderation or block call writes; a GET
 * changes nothing whoever asks; an allowed change does change something. Each allowed cell runs on
 * a world of its own; a row's refusals share one (each is checked to have changed nothing, so none
 * can affect the next), which halves the run.
 */

const ROLES = ["visitor", "member", "author", "clubMember", "clubAdmin", "clubOwner", "moderator", "admin"] as const;
type Role = (typeof ROLES)[number];

/**
 * A status, or for pages: "signin" (302 to /auth and back), "done" (an action's 302 elsewhere: the
 * POST/redirect/GET of a success) and "away" (a loader's 302 elsewhere: a tab sending a visitor on).
 */
type Outcome = number | "signin" | "done" | "away";

/** The table's columns, in ROLES order. */
const by = (...outcomes: Outcome[]): Record<Role, Outcome> => {
  if (outcomes.length !== ROLES.length) throw new Error(`a row needs ${ROLES.length} outcomes, one per role`);
  return Object.fromEntries(ROLES.map((role, i) => [role, outcomes[i]])) as Record<Role, Outcome>;
};

type Person = { id: number; username: string };

/**
 * The members of a world are written straight to the database: registerUser's scrypt costs ~100 ms
 * a member on this machine, times ~11 members in each of 300+ worlds. Nobody here signs in with a
 * password; the actor gets a real session (commitUserSession).
 */
let seq = 0;
async function person(role: "member" | "moderator" | "admin" = "member"): Promise<Person> {
  seq += 1;
  const username = `mx${seq}_${Math.random().toString(36).slice(2, 7)}`;
  const [row] = await db
    .insert(users)
    .values({ username, displayName: `Member ${seq}`, email: `${username}@example.com`, passwordHash: "not-a-password-hash", role })
    .returning({ id: users.id, username: users.username });
  return row!;
}

type World = {
  as: Record<Exclude<Role, "visitor">, Person>;
  /** Reported the post before anyone acts (the case). */
  reporter: Person;
  /** A second site moderator (only admins suspend moderators). */
  otherModerator: Person;
  /** A second admin of the club (an admin does not remove another admin). */
  otherClubAdmin: Person;
  clubId: number;
  postId: number;
  commentId: number;
  caseId: number;
  /** A pending join request to the club (club staff approve and reject). */
  requestId: number;
};

/**
 * A new world. The site staff of earlier worlds step down first (but those of `keep`, the row's
 * shared refusal world, still in use): every report tells every site moderator and admin (ux-3 U23),
 * and with three more staff a world, the file's ~200 worlds had each report write hundreds of notices
 * and each snapshot read tens of thousands of rows (minutes instead of seconds).
 */
async function makeWorld(keep?: World): Promise<World> {
  const kept = keep ? [keep.as.moderator.id, keep.as.admin.id, keep.otherModerator.id] : [];
  await db
    .update(users)
    .set({ role: "member" })
    .where(and(inArray(users.role, ["moderator", "admin"]), kept.length ? notInArray(users.id, kept) : undefined));
  const owner = await person();
  const clubId = await makeClub(owner.id, { name: `Matrix club ${seq}` });
  const [author, member, clubMember, clubAdmin, otherClubAdmin, reporter] = [
    await person(),
    await person(),
    await person(),
    await person(),
    await person(),
    await person(),
  ];
  for (const m of [author, clubMember, clubAdmin, otherClubAdmin]) await addMember(clubId, m.id);
  await setClubRole(clubId, clubAdmin.id, "admin");
  await setClubRole(clubId, otherClubAdmin.id, "admin");
  const post = await createPost(author, postInput({ clubId }), { preview: async () => null });
  const comment = await addComment(author, post.id, { content: "A comment on the scrape line" });
  const report = await reportTarget(reporter, { targetType: "post", targetId: post.id, reason: "spam", details: "Selling tags" });
  const caseId = first(await db.select({ caseId: reports.caseId }).from(reports).where(eq(reports.id, report.id)))!.caseId;
  // Written directly: the club is public (its post must be readable by all), and requests are a private club's.
  const [request] = await db
    .insert(joinRequests)
    .values({ clubId, userId: (await person()).id, message: "Hunting the creek since 1990" })
    .returning({ id: joinRequests.id });
  return {
    as: {
      member,
      author,
      clubMember,
      clubAdmin,
      clubOwner: owner,
      moderator: await person("moderator"),
      admin: await person("admin"),
    },
    reporter,
    otherModerator: await person("moderator"),
    otherClubAdmin,
    clubId,
    postId: post.id,
    commentId: comment.id,
    caseId,
    requestId: request!.id,
  };
}

/** Every table a moderation or block call writes, whole (sessions without their sliding times). */
const TABLES = [
  "users",
  "posts",
  "comments",
  "clubs",
  "club_members",
  "join_requests",
  "follows",
  "blocks",
  "reports",
  "moderation_cases",
  "moderation_log",
  "notifications",
];
async function snapshot(): Promise<Record<string, string[]>> {
  const rows = (source: string) =>
    queryRows<Record<string, unknown>>(source).then((list) =>
      list.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).sort(),
    );
  const out: Record<string, string[]> = {};
  for (const table of TABLES) out[table] = await rows(`SELECT * FROM ${table}`);
  out.sessions = await rows(`SELECT id, user_id FROM sessions`);
  return out;
}

type Row = {
  call: string;
  /** Reads only: nothing may change, whoever asks. */
  read?: boolean;
  /** State the call acts on, set up before the actor's turn (by someone allowed to). */
  prepare?: (w: World, actor: Person | null) => Promise<void>;
  send: (w: World, cookie: string | undefined) => Promise<Response>;
  expect: Record<Role, Outcome>;
  /** More about an allowed answer. */
  allowed?: (w: World, res: Response) => Promise<void>;
};

const noBody = {};
const api = (
  handler: Parameters<typeof call>[0],
  method: string,
  path: (w: World) => string,
  params: (w: World) => Record<string, string>,
  json?: (w: World) => unknown,
) => {
  return (w: World, cookie: string | undefined) =>
    call(handler, makeRequest(path(w), { method, cookie, json: json ? json(w) : method === "GET" ? undefined : noBody }), params(w));
};
const page = (
  handler: Parameters<typeof call>[0],
  path: (w: World) => string,
  params: (w: World) => Record<string, string>,
  form?: (w: World) => Record<string, string>,
) => {
  return (w: World, cookie: string | undefined) => call(handler, makeRequest(path(w), { cookie, form: form?.(w) }), params(w));
};

// Removed by the club's own staff: club staff and site staff may restore it.
const removePost = async (w: World) => removeContent(w.as.clubOwner, { type: "post", id: w.postId }, "Off topic");
const removeComment = async (w: World) => removeContent(w.as.clubOwner, { type: "comment", id: w.commentId }, "Off topic");
// Removed by a site moderator: only site staff may restore it (the staff ladder, security-3 P3).
const siteRemovesPost = async (w: World) => removeContent(w.as.moderator, { type: "post", id: w.postId }, "Illegal content");
const siteRemovesComment = async (w: World) => removeContent(w.as.moderator, { type: "comment", id: w.commentId }, "Illegal content");
const suspendAuthor = async (w: World) => {
  await suspendMember(w.as.admin, w.as.author.username, { reason: "Spam" });
};
const blockAuthor = async (w: World, actor: Person | null) => {
  if (actor && actor.id !== w.as.author.id) await blockMember(actor, w.as.author.username);
};
const post = (w: World) => ({ id: String(w.postId) });
const club = (w: World) => ({ id: String(w.clubId) });
const author = (w: World) => ({ username: w.as.author.username });
const caseListed = async (w: World, res: Response) => {
  const list = (await res.json()) as { id: number }[];
  expect(list.map((c) => c.id)).toContain(w.caseId);
};

//                                      visitor   member  author   clubMember clubAdmin clubOwner moderator admin
const STAFF_API = by(401, 403, 403, 403, 200, 200, 200, 200);
const STAFF_PAGE = by("signin", 403, 403, 403, "done", "done", "done", "done");
const SITE_STAFF_API = by(401, 403, 403, 403, 403, 403, 200, 200);
const SITE_STAFF_PAGE = by("signin", 403, 403, 403, 403, 403, "done", "done");
/** The club's owner and admins only (site staff do not run clubs). */
const CLUB_STAFF_API = by(401, 403, 403, 403, 200, 200, 403, 403);
const CLUB_STAFF_PAGE = by("signin", 403, 403, 403, "done", "done", 403, 403);
const ANY_MEMBER_BUT_AUTHOR = by(401, 201, 400, 201, 201, 201, 201, 201);

const ROWS: Row[] = [
  // ---- JSON surface ----
  {
    call: "POST /api/reports (post)",
    send: api(
      apiReports.action,
      "POST",
      () => "/api/reports",
      () => ({}),
      (w) => ({ targetType: "post", targetId: w.postId, reason: "spam" }),
    ),
    expect: ANY_MEMBER_BUT_AUTHOR,
  },
  {
    call: "POST /api/reports (comment)",
    send: api(
      apiReports.action,
      "POST",
      () => "/api/reports",
      () => ({}),
      (w) => ({ targetType: "comment", targetId: w.commentId, reason: "harassment" }),
    ),
    expect: ANY_MEMBER_BUT_AUTHOR,
  },
  {
    call: "POST /api/reports (member)",
    send: api(
      apiReports.action,
      "POST",
      () => "/api/reports",
      () => ({}),
      (w) => ({ targetType: "user", targetId: w.as.author.id, reason: "other" }),
    ),
    expect: ANY_MEMBER_BUT_AUTHOR,
  },
  {
    call: "POST /api/reports (club)",
    send: api(
      apiReports.action,
      "POST",
      () => "/api/reports",
      () => ({}),
      (w) => ({ targetType: "club", targetId: w.clubId, reason: "illegal" }),
    ),
    // The owner is the club's subject: reporting one's own club is 400, as one's own post is.
    expect: by(401, 201, 201, 201, 201, 400, 201, 201),
  },
  {
    call: "GET /api/moderation/reports",
    read: true,
    send: api(
      apiQueue.loader,
      "GET",
      () => "/api/moderation/reports?status=open",
      () => ({}),
    ),
    expect: STAFF_API,
    allowed: caseListed,
  },
  {
    call: "GET /api/moderation/reports/{id} (not a route: 405)",
    read: true,
    send: api(
      apiCase.loader,
      "GET",
      (w) => `/api/moderation/reports/${w.caseId}`,
      (w) => ({ id: String(w.caseId) }),
    ),
    expect: by(405, 405, 405, 405, 405, 405, 405, 405),
  },
  {
    call: "POST /api/moderation/reports/{id} dismiss",
    send: api(
      apiCase.action,
      "POST",
      (w) => `/api/moderation/reports/${w.caseId}`,
      (w) => ({ id: String(w.caseId) }),
      () => ({ action: "dismiss" }),
    ),
    expect: STAFF_API,
  },
  {
    call: "POST /api/moderation/reports/{id} remove",
    send: api(
      apiCase.action,
      "POST",
      (w) => `/api/moderation/reports/${w.caseId}`,
      (w) => ({ id: String(w.caseId) }),
      () => ({ action: "remove", reason: "Selling tags" }),
    ),
    expect: STAFF_API,
  },
  {
    call: "POST /api/moderation/posts/{id}/remove",
    send: api(
      apiRemovePost.action,
      "POST",
      (w) => `/api/moderation/posts/${w.postId}/remove`,
      post,
      () => ({ reason: "Off topic" }),
    ),
    expect: STAFF_API,
  },
  {
    call: "POST /api/moderation/posts/{id}/restore",
    prepare: removePost,
    send: api(apiRestorePost.action, "POST", (w) => `/api/moderation/posts/${w.postId}/restore`, post),
    expect: STAFF_API,
  },
  {
    call: "POST /api/moderation/posts/{id}/restore (a site moderator's removal)",
    prepare: siteRemovesPost,
    send: api(apiRestorePost.action, "POST", (w) => `/api/moderation/posts/${w.postId}/restore`, post),
    expect: SITE_STAFF_API,
  },
  {
    call: "POST /api/moderation/comments/{id}/remove",
    send: api(
      apiRemoveComment.action,
      "POST",
      (w) => `/api/moderation/comments/${w.commentId}/remove`,
      (w) => ({ id: String(w.commentId) }),
      () => ({ reason: "Rude" }),
    ),
    expect: STAFF_API,
  },
  {
    call: "POST /api/moderation/comments/{id}/restore",
    prepare: removeComment,
    send: api(
      apiRestoreComment.action,
      "POST",
      (w) => `/api/moderation/comments/${w.commentId}/restore`,
      (w) => ({ id: String(w.commentId) }),
    ),
    expect: STAFF_API,
  },
  {
    call: "POST /api/moderation/comments/{id}/restore (a site moderator's removal)",
    prepare: siteRemovesComment,
    send: api(
      apiRestoreComment.action,
      "POST",
      (w) => `/api/moderation/comments/${w.commentId}/restore`,
      (w) => ({ id: String(w.commentId) }),
    ),
    expect: SITE_STAFF_API,
  },
  {
    call: "POST /api/moderation/users/{author}/suspend",
    send: api(
      apiSuspend.action,
      "POST",
      (w) => `/api/moderation/users/${w.as.author.username}/suspend`,
      author,
      () => ({ reason: "Spam", days: 3 }),
    ),
    // The author suspending themself: 403 (NOT_YOURSELF).
    expect: SITE_STAFF_API,
  },
  {
    call: "POST /api/moderation/users/{author}/unsuspend",
    prepare: suspendAuthor,
    send: api(apiUnsuspend.action, "POST", (w) => `/api/moderation/users/${w.as.author.username}/unsuspend`, author),
    // A suspended author has no live session: 401.
    expect: by(401, 403, 401, 403, 403, 403, 200, 200),
  },
  {
    call: "POST /api/moderation/users/{moderator}/suspend",
    send: api(
      apiSuspend.action,
      "POST",
      (w) => `/api/moderation/users/${w.otherModerator.username}/suspend`,
      (w) => ({ username: w.otherModerator.username }),
      () => ({ reason: "Abuse of powers" }),
    ),
    // Only admins suspend moderators.
    expect: by(401, 403, 403, 403, 403, 403, 403, 200),
  },
  {
    call: "GET /api/moderation/log",
    read: true,
    prepare: removePost,
    send: api(
      apiLog.loader,
      "GET",
      () => "/api/moderation/log",
      () => ({}),
    ),
    expect: STAFF_API,
    allowed: async (w, res) => {
      const { entries } = (await res.json()) as { entries: { targetId: number; action: string }[] };
      expect(entries).toContainEqual(expect.objectContaining({ action: "remove", targetId: w.postId }));
    },
  },
  {
    call: "PUT /api/clubs/{id}/members/{author} {role: admin}",
    send: api(
      apiClubMember.action,
      "PUT",
      (w) => `/api/clubs/${w.clubId}/members/${w.as.author.username}`,
      (w) => ({ id: String(w.clubId), username: w.as.author.username }),
      () => ({ role: "admin" }),
    ),
    expect: by(401, 403, 403, 403, 403, 200, 403, 403),
  },
  {
    call: "DELETE /api/clubs/{id}/members/{author}",
    send: api(
      apiClubMember.action,
      "DELETE",
      (w) => `/api/clubs/${w.clubId}/members/${w.as.author.username}`,
      (w) => ({ id: String(w.clubId), username: w.as.author.username }),
    ),
    expect: by(401, 403, 403, 403, 204, 204, 403, 403),
  },
  {
    call: "DELETE /api/clubs/{id}/members/{another club admin}",
    send: api(
      apiClubMember.action,
      "DELETE",
      (w) => `/api/clubs/${w.clubId}/members/${w.otherClubAdmin.username}`,
      (w) => ({ id: String(w.clubId), username: w.otherClubAdmin.username }),
    ),
    // An admin does not remove another admin; the owner does.
    expect: by(401, 403, 403, 403, 403, 204, 403, 403),
  },
  {
    call: "GET /api/clubs/{id}/requests",
    read: true,
    send: api(apiClubRequests.loader, "GET", (w) => `/api/clubs/${w.clubId}/requests`, club),
    expect: CLUB_STAFF_API,
  },
  {
    call: "POST /api/clubs/{id}/requests/{requestId} approve",
    send: api(
      apiClubRequest.action,
      "POST",
      (w) => `/api/clubs/${w.clubId}/requests/${w.requestId}`,
      (w) => ({ id: String(w.clubId), requestId: String(w.requestId) }),
      () => ({ action: "approve" }),
    ),
    expect: CLUB_STAFF_API,
  },
  {
    call: "POST /api/clubs/{id}/requests/{requestId} reject",
    send: api(
      apiClubRequest.action,
      "POST",
      (w) => `/api/clubs/${w.clubId}/requests/${w.requestId}`,
      (w) => ({ id: String(w.clubId), requestId: String(w.requestId) }),
      () => ({ action: "reject" }),
    ),
    expect: CLUB_STAFF_API,
  },
  {
    call: "POST /api/users/{author}/block",
    send: api(apiBlock.action, "POST", (w) => `/api/users/${w.as.author.username}/block`, author),
    // Blocking oneself: 400.
    expect: by(401, 200, 400, 200, 200, 200, 200, 200),
  },
  {
    call: "DELETE /api/users/{author}/block",
    prepare: blockAuthor,
    send: api(apiBlock.action, "DELETE", (w) => `/api/users/${w.as.author.username}/block`, author),
    expect: by(401, 200, 400, 200, 200, 200, 200, 200),
  },
  {
    call: "GET /api/auth/blocks",
    read: true,
    prepare: blockAuthor,
    send: api(
      apiBlocks.loader,
      "GET",
      () => "/api/auth/blocks",
      () => ({}),
    ),
    expect: by(401, 200, 200, 200, 200, 200, 200, 200),
  },

  // ---- Pages (plain forms, JavaScript off) ----
  {
    call: "GET /report?type=post",
    read: true,
    send: page(
      reportPage.loader,
      (w) => `/report?type=post&id=${w.postId}`,
      () => ({}),
    ),
    expect: by("signin", 200, 400, 200, 200, 200, 200, 200),
  },
  {
    call: "POST /report?type=post",
    send: page(
      reportPage.action,
      (w) => `/report?type=post&id=${w.postId}`,
      () => ({}),
      () => ({ reason: "spam", details: "" }),
    ),
    expect: by("signin", "done", 400, "done", "done", "done", "done", "done"),
  },
  {
    call: "POST /report?type=user",
    send: page(
      reportPage.action,
      (w) => `/report?type=user&id=${w.as.author.id}`,
      () => ({}),
      () => ({ reason: "harassment" }),
    ),
    expect: by("signin", "done", 400, "done", "done", "done", "done", "done"),
  },
  {
    call: "GET /moderation",
    read: true,
    send: page(
      moderationPage.loader,
      () => "/moderation",
      () => ({}),
    ),
    expect: by("signin", 403, 403, 403, 200, 200, 200, 200),
    allowed: async (w, res) => {
      const { cases } = (await res.json()) as { cases: { entries: { id: number }[] } };
      expect(cases.entries.map((c) => c.id)).toContain(w.caseId);
    },
  },
  {
    call: "GET /moderation?tab=log",
    read: true,
    send: page(
      moderationPage.loader,
      () => "/moderation?tab=log",
      () => ({}),
    ),
    expect: by("signin", 403, 403, 403, 200, 200, 200, 200),
  },
  {
    call: "POST /moderation dismiss",
    send: page(
      moderationPage.action,
      () => "/moderation",
      () => ({}),
      (w) => ({ caseId: String(w.caseId), intent: "dismiss" }),
    ),
    expect: STAFF_PAGE,
  },
  {
    call: "POST /moderation remove",
    send: page(
      moderationPage.action,
      () => "/moderation",
      () => ({}),
      (w) => ({ caseId: String(w.caseId), intent: "remove", reason: "Selling tags" }),
    ),
    expect: STAFF_PAGE,
  },
  {
    call: "GET /post/{id}/moderate",
    read: true,
    send: page(moderatePage.loader, (w) => `/post/${w.postId}/moderate`, post),
    // Not staff: 404 (the form's existence is not confirmed).
    expect: by("signin", 404, 404, 404, 200, 200, 200, 200),
  },
  {
    call: "POST /post/{id}/moderate remove post",
    send: page(
      moderatePage.action,
      (w) => `/post/${w.postId}/moderate`,
      post,
      () => ({ intent: "remove", reason: "Off topic" }),
    ),
    expect: STAFF_PAGE,
  },
  {
    call: "POST /post/{id}/moderate restore post",
    prepare: removePost,
    send: page(
      moderatePage.action,
      (w) => `/post/${w.postId}/moderate`,
      post,
      () => ({ intent: "restore" }),
    ),
    expect: STAFF_PAGE,
  },
  {
    call: "POST /post/{id}/moderate restore post (a site moderator's removal)",
    prepare: siteRemovesPost,
    send: page(
      moderatePage.action,
      (w) => `/post/${w.postId}/moderate`,
      post,
      () => ({ intent: "restore" }),
    ),
    expect: SITE_STAFF_PAGE,
  },
  {
    call: "POST /post/{id}/moderate remove comment",
    send: page(
      moderatePage.action,
      (w) => `/post/${w.postId}/moderate`,
      post,
      (w) => ({
        intent: "remove",
        comment: String(w.commentId),
        reason: "Rude",
      }),
    ),
    expect: STAFF_PAGE,
  },
  {
    call: "POST /post/{id}/moderate restore comment",
    prepare: removeComment,
    send: page(
      moderatePage.action,
      (w) => `/post/${w.postId}/moderate`,
      post,
      (w) => ({ intent: "restore", comment: String(w.commentId) }),
    ),
    expect: STAFF_PAGE,
  },
  {
    call: "GET /moderation/members/{author}",
    read: true,
    send: page(memberStaffPage.loader, (w) => `/moderation/members/${w.as.author.username}`, author),
    expect: by("signin", 403, 403, 403, 403, 403, 200, 200),
  },
  {
    call: "POST /moderation/members/{author} suspend",
    send: page(
      memberStaffPage.action,
      (w) => `/moderation/members/${w.as.author.username}`,
      author,
      () => ({
        intent: "suspend",
        reason: "Spam",
        days: "3",
      }),
    ),
    expect: by("signin", 403, 403, 403, 403, 403, "done", "done"),
  },
  {
    call: "POST /moderation/members/{author} unsuspend",
    prepare: suspendAuthor,
    send: page(
      memberStaffPage.action,
      (w) => `/moderation/members/${w.as.author.username}`,
      author,
      () => ({ intent: "unsuspend" }),
    ),
    expect: by("signin", 403, "signin", 403, 403, 403, "done", "done"),
  },
  {
    call: "POST /moderation/members/{moderator} suspend",
    send: page(
      memberStaffPage.action,
      (w) => `/moderation/members/${w.otherModerator.username}`,
      (w) => ({ username: w.otherModerator.username }),
      () => ({ intent: "suspend", reason: "Abuse of powers", days: "" }),
    ),
    expect: by("signin", 403, 403, 403, 403, 403, 403, "done"),
  },
  {
    call: "POST /clubs/{id}/members set-role admin",
    send: page(
      clubMembersPage.action,
      (w) => `/clubs/${w.clubId}/members`,
      club,
      (w) => ({
        intent: "set-role",
        username: w.as.author.username,
        role: "admin",
      }),
    ),
    expect: by("signin", 403, 403, 403, 403, "done", 403, 403),
  },
  {
    call: "POST /clubs/{id}/members remove-member",
    send: page(
      clubMembersPage.action,
      (w) => `/clubs/${w.clubId}/members`,
      club,
      (w) => ({
        intent: "remove-member",
        username: w.as.author.username,
      }),
    ),
    expect: by("signin", 403, 403, 403, "done", "done", 403, 403),
  },
  {
    call: "POST /clubs/{id}/members remove-member (another club admin)",
    send: page(
      clubMembersPage.action,
      (w) => `/clubs/${w.clubId}/members`,
      club,
      (w) => ({
        intent: "remove-member",
        username: w.otherClubAdmin.username,
      }),
    ),
    expect: by("signin", 403, 403, 403, 403, "done", 403, 403),
  },
  {
    call: "GET /clubs/{id}/requests",
    read: true,
    send: page(clubRequestsPage.loader, (w) => `/clubs/${w.clubId}/requests`, club),
    // Anyone but the club's staff is sent to the club's posts (signed in or not).
    expect: by("away", "away", "away", "away", 200, 200, "away", "away"),
  },
  {
    call: "POST /clubs/{id}/requests approve",
    send: page(
      clubRequestsPage.action,
      (w) => `/clubs/${w.clubId}/requests`,
      club,
      (w) => ({
        intent: "approve",
        requestId: String(w.requestId),
      }),
    ),
    expect: CLUB_STAFF_PAGE,
  },
  {
    call: "POST /clubs/{id}/requests reject",
    send: page(
      clubRequestsPage.action,
      (w) => `/clubs/${w.clubId}/requests`,
      club,
      (w) => ({
        intent: "reject",
        requestId: String(w.requestId),
      }),
    ),
    expect: CLUB_STAFF_PAGE,
  },
  {
    call: "POST /profile/{author} block",
    send: page(
      profilePage.action,
      (w) => `/profile/${w.as.author.username}`,
      author,
      () => ({ intent: "block" }),
    ),
    expect: by("signin", "done", 400, "done", "done", "done", "done", "done"),
  },
  {
    call: "POST /profile/{author} unblock",
    prepare: blockAuthor,
    send: page(
      profilePage.action,
      (w) => `/profile/${w.as.author.username}`,
      author,
      () => ({ intent: "unblock" }),
    ),
    expect: by("signin", "done", 400, "done", "done", "done", "done", "done"),
  },
  {
    call: "POST /settings unblock",
    prepare: blockAuthor,
    send: page(
      settingsPage.action,
      () => "/settings?tab=privacy",
      () => ({}),
      (w) => ({ intent: "unblock", username: w.as.author.username }),
    ),
    expect: by("signin", "done", 400, "done", "done", "done", "done", "done"),
  },
];

const refused = (outcome: Outcome) => outcome === "signin" || outcome === "away" || (typeof outcome === "number" && outcome >= 400);

describe("authorization matrix of the moderation and block calls and pages (issue 27, CONTRACT.md §8)", () => {
  for (const row of ROWS) {
    describe(row.call, () => {
      let refusalWorld: World | undefined;
      for (const role of ROLES) {
        const outcome = row.expect[role];
        it(`${role}: ${outcome}`, async () => {
          // Refusals change nothing (checked below), so a row's refusals share one world; each allowed change gets its own.
          const w = refused(outcome) ? (refusalWorld ??= await makeWorld()) : await makeWorld(refusalWorld);
          const actor = role === "visitor" ? null : w.as[role];
          await row.prepare?.(w, actor);
          const cookie = actor ? (await commitUserSession(actor)).split(";")[0] : undefined;
          const before = await snapshot();
          const res = await row.send(w, cookie);
          const location = res.headers.get("Location");
          const got: Outcome =
            res.status === 302 && location ? (location.startsWith("/auth?") ? "signin" : row.read ? "away" : "done") : res.status;
          expect(got, `${row.call} as ${role} (Location: ${location})`).toBe(outcome);
          const after = await snapshot();
          if (refused(outcome) || row.read) {
            expect(after, "a refusal or a read changes nothing").toEqual(before);
          } else {
            expect(after, "an allowed change changes something").not.toEqual(before);
          }
          if (typeof outcome === "number" && outcome >= 400 && outcome !== 405 && row.call.includes("/api/")) {
            expect(((await res.json()) as { error?: string }).error).toBeTruthy();
          }
          if (!refused(outcome)) await row.allowed?.(w, res);
        });
      }
    });
  }
});
