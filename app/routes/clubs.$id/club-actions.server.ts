import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data } from "react-router";
import { decideJoinRequest, joinClub, leaveClub, removeClubMember, setClubMemberRole } from "~/models/clubs/club-membership.server";
import { deleteClub, getClub, updateClub } from "~/models/clubs/club.server";
import { createInvite, revokeInvite } from "~/models/clubs/invite.server";
import { safeRedirect } from "~/schemas/auth";
import { CLUB_NOT_FOUND, editClubSchema, inviteSchema, joinSchema } from "~/schemas/club";
import { isAppError, isRefusal, notFound, unauthorized } from "~/utils/errors";
import type { Toast } from "~/utils/toast";
import { formReply } from "~/web/page-errors.server";
import { idParam } from "~/web/params.server";
import { formKey, idempotent } from "~/web/idempotency.server";
import { getSessionUser, type SessionUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";
import { readFormData } from "~/web/request-body.server";

/**
 * Every club mutation of /clubs/{id} and its tabs, one function per intent: join (with an optional
 * message), leave, approve / reject (owner and admins), update / delete (owner), invite / revoke,
 * set-role (owner) and remove-member (owner and admins). Each ends in
 * a redirect with a flash toast; a form with fields that fails comes back with what was typed
 * (`formReply`, tagged with its intent, since the page holds several forms). Route actions wrap
 * `clubAction` in `withPageErrors`, which turns sign-in and refusals into the page's answers.
 */
export async function clubAction({ request, params }: ActionFunctionArgs) {
  const clubId = idParam(params.id, CLUB_NOT_FOUND);
  const actor = await getSessionUser(request);
  const formData = await readFormData(request);
  const ctx = { clubId, actor, formData };
  // The forms that create something (join request, invite) carry an idempotency key (CONTRACT.md §6).
  return idempotent(request, actor?.id, formKey(formData), () => runIntent(ctx));
}

async function runIntent(ctx: Ctx) {
  const intent = ctx.formData.get("intent");
  switch (intent) {
    case "join":
      return joinAction(ctx);
    case "leave":
      return leaveAction(ctx);
    case "approve":
    case "reject":
      return decideAction(ctx, intent);
    case "update":
      return updateAction(ctx);
    case "delete":
      return deleteAction(ctx);
    case "invite":
      return inviteAction(ctx);
    case "revoke":
      return revokeAction(ctx);
    case "set-role":
      return setRoleAction(ctx);
    case "remove-member":
      return removeMemberAction(ctx);
    default:
      throw data({ message: `Invalid intent "${String(intent)}"` }, { status: 400 });
  }
}

type Ctx = { clubId: number; actor: SessionUser | null; formData: FormData };

const clubPath = (clubId: number, tab?: "requests" | "invites" | "members") => (tab ? `/clubs/${clubId}/${tab}` : `/clubs/${clubId}`);

/**
 * Run a mutation whose failure the member can only read (a full club, the owner leaving …): a
 * fixable domain error becomes an error toast back on `back`; refusals go on to `withPageErrors`.
 */
async function orToast<T>(
  back: string,
  run: () => T | Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; response: Awaited<ReturnType<typeof redirectWithToast>> }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (!isAppError(error) || isRefusal(error)) throw error;
    return { ok: false, response: await redirectWithToast(back, { title: "Error", description: error.message, type: "error" }) };
  }
}

const done = (to: string, toast: Omit<Toast, "type">) => redirectWithToast(to, { ...toast, type: "success" });

async function joinAction({ clubId, actor, formData }: Ctx) {
  // SPEC.md §8: a visitor gets the sign-in notice (withPageErrors sends them to /auth and back).
  if (!actor) throw unauthorized("Please sign in to join clubs");
  const back = safeRedirect(formData.get("redirectTo"), clubPath(clubId));
  const submission = parseWithZod(formData, { schema: joinSchema });
  if (submission.status !== "success") return formReply(submission, { data: { intent: "join" as const } });
  const joined = await orToast(back, () => joinClub(actor, clubId, { message: submission.value.message }));
  if (!joined.ok) return joined.response;
  if (joined.value.status === "pending")
    return done(back, { title: "Request sent", description: "The club owner will review your request." });
  return done(back, { title: "Joined club", description: `Welcome to ${(await getClub(actor, clubId)).name}!` });
}

async function leaveAction({ clubId, actor }: Ctx) {
  const left = await orToast(clubPath(clubId), () => leaveClub(actor, clubId));
  if (!left.ok) return left.response;
  return done(clubPath(clubId), { title: "Left club", description: "You are no longer a member of this club." });
}

async function decideAction({ clubId, actor, formData }: Ctx, decision: "approve" | "reject") {
  const requestId = Number(formData.get("requestId"));
  if (!Number.isInteger(requestId) || requestId < 1) throw notFound("Join request not found");
  const back = clubPath(clubId, "requests");
  const decided = await orToast(back, () => decideJoinRequest(actor, clubId, requestId, decision));
  if (!decided.ok) return decided.response;
  return done(back, { title: decided.value.status === "approved" ? "Request approved" : "Request rejected" });
}

async function updateAction({ clubId, actor, formData }: Ctx) {
  const submission = parseWithZod(formData, { schema: editClubSchema });
  const data = { intent: "update" as const };
  if (submission.status !== "success") return formReply(submission, { data });
  try {
    await updateClub(actor, clubId, submission.value);
  } catch (error) {
    return formReply(submission, { error, data });
  }
  return done(clubPath(clubId), { title: "Club updated", description: "Your changes have been saved." });
}

async function deleteAction({ clubId, actor }: Ctx) {
  const deleted = await orToast(clubPath(clubId), () => deleteClub(actor, clubId));
  if (!deleted.ok) return deleted.response;
  return done("/clubs", { title: "Club deleted", description: "The club and everything in it has been removed." });
}

async function inviteAction({ clubId, actor, formData }: Ctx) {
  const submission = parseWithZod(formData, { schema: inviteSchema });
  const data = { intent: "invite" as const };
  if (submission.status !== "success") return formReply(submission, { data });
  let invite;
  try {
    invite = await createInvite(actor, clubId, submission.value);
  } catch (error) {
    return formReply(submission, { error, data });
  }
  return done(`${clubPath(clubId, "invites")}?${new URLSearchParams({ generated: invite.inviteCode })}`, {
    title: "Invite link created",
    description: "Share it with the hunters you want in the club.",
  });
}

async function revokeAction({ clubId, actor, formData }: Ctx) {
  const inviteId = Number(formData.get("inviteId"));
  if (!Number.isInteger(inviteId) || inviteId < 1) throw notFound("Invite not found");
  const back = clubPath(clubId, "invites");
  const revoked = await orToast(back, () => revokeInvite(actor, clubId, inviteId));
  if (!revoked.ok) return revoked.response;
  return done(back, { title: "Invite revoked" });
}

/** Make admin / Remove admin role on the Members tab (the owner only). */
async function setRoleAction({ clubId, actor, formData }: Ctx) {
  const username = String(formData.get("username") ?? "");
  const back = clubPath(clubId, "members");
  const changed = await orToast(back, () => setClubMemberRole(actor, clubId, username, { role: formData.get("role") }));
  if (!changed.ok) return changed.response;
  const { displayName, role } = changed.value;
  return done(back, {
    title: role === "admin" ? "Admin added" : "Admin removed",
    description: `${displayName} is now ${role === "admin" ? "an admin" : "a member"} of the club.`,
  });
}

/** Remove from club, after its confirmation step (the owner and admins). */
async function removeMemberAction({ clubId, actor, formData }: Ctx) {
  const username = String(formData.get("username") ?? "");
  const back = clubPath(clubId, "members");
  const removed = await orToast(back, () => removeClubMember(actor, clubId, username));
  if (!removed.ok) return removed.response;
  return done(back, { title: "Member removed", description: `${username} is no longer a member of the club.` });
}
