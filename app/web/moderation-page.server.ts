import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "react-router";
import {
  COMMENT_GONE,
  removeContent,
  restoreContent,
  targetPlace,
  type ModeratedTarget,
} from "~/models/moderation/moderation-removal.server";
import { setPostSensitive } from "~/models/moderation/moderation-sensitive.server";
import { getPost, moderatesAs } from "~/models/posts/post.server";
import type { Remover } from "#db/schema";
import { POST_NOT_FOUND } from "~/schemas/messages";
import type { HiddenNotice } from "~/schemas/shapes";
import { badRequest, isAppError, notFound } from "~/utils/errors";
import { withLoaderErrors, withPageErrors } from "./page-errors.server";
import { idParam } from "./params.server";
import { readFormData } from "./request-body.server";
import { getSessionUser, requireActor } from "./session.server";
import { redirectWithToast } from "./toast.server";

/**
 * /post/{id}/moderate: removal and restore of a post or one of its comments as plain forms
 * (CONTRACT.md §8, every action with JavaScript off). The post page's small Remove and Restore forms
 * post here; a success goes back to the post (POST/redirect/GET) with a toast, a reason left out or
 * too long comes back on this page's form with what was typed. GET shows that form by itself.
 * A post's "graphic photo" mark is set and cleared here too (intents `mark-sensitive`, `unmark-sensitive`).
 * Who may decide is the model's rule (site staff, or the club's staff for club content).
 */

export type ModerationFormData = {
  postId: number;
  target: ModeratedTarget;
  label: string;
  /** As whom the viewer moderates here (post.server.ts `moderatesAs`). */
  as: Remover;
  hidden: HiddenNotice | null;
  /** The post is marked as a graphic photo (CONTRACT.md §14). */
  sensitive: boolean;
};

export type ModerationFormFailure = { error: string; fieldErrors: Record<string, string[]>; reason: string };

/** The target a form names: the post, or `?comment=` / `comment` one of its comments. */
function targetOf(postId: number, commentParam: FormDataEntryValue | string | null): ModeratedTarget {
  if (commentParam === null || commentParam === "") return { type: "post", id: postId };
  return { type: "comment", id: idParam(String(commentParam), COMMENT_GONE) };
}

/** Where the decision leaves the moderator: the post, at the comment when it was one. */
const backTo = (postId: number, target: ModeratedTarget) => `/post/${postId}${target.type === "comment" ? `#comment-${target.id}` : ""}`;

export async function moderationPageLoader({ request, params }: LoaderFunctionArgs) {
  return withLoaderErrors(
    request,
    async () => {
      const postId = idParam(params.id, POST_NOT_FOUND);
      const actor = await requireActor(request);
      const target = targetOf(postId, new URL(request.url).searchParams.get("comment"));
      const post = await getPost(actor, postId);
      const place = await targetPlace(target);
      if (!place) throw notFound(target.type === "post" ? POST_NOT_FOUND : COMMENT_GONE);
      const as = await moderatesAs(actor, post.clubId);
      if (!as) throw notFound(POST_NOT_FOUND);
      const hidden = target.type === "post" ? (post.hidden ?? null) : null;
      return data<ModerationFormData>({ postId, target, label: place.label, hidden, as, sensitive: post.sensitive });
    },
    { notFound: POST_NOT_FOUND, hideForbidden: true },
  );
}

export async function moderationPageAction(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request, params }) => {
    const postId = idParam(params.id, POST_NOT_FOUND);
    const form = await readFormData(request);
    const actor = (await getSessionUser(request)) ?? null;
    const target = targetOf(postId, form.get("comment"));
    const intent = String(form.get("intent") ?? "");
    const what = target.type === "post" ? "Post" : "Comment";
    if (intent === "restore") {
      await restoreContent(actor, target);
      return redirectWithToast(backTo(postId, target), { title: `${what} restored`, type: "success" });
    }
    if ((intent === "mark-sensitive" || intent === "unmark-sensitive") && target.type === "post") {
      const on = intent === "mark-sensitive";
      await setPostSensitive(actor, postId, on);
      return redirectWithToast(backTo(postId, target), {
        title: on ? "Marked as a graphic photo" : "No longer marked as a graphic photo",
        type: "success",
      });
    }
    if (intent !== "remove") throw badRequest("Choose Remove or Restore");
    const reason = String(form.get("reason") ?? "");
    try {
      await removeContent(actor, target, reason);
    } catch (error) {
      // A reason left out or too long: back on the form with what was typed.
      if (isAppError(error) && error.status === 400) {
        return data<ModerationFormFailure>({ error: error.message, fieldErrors: error.fieldErrors ?? {}, reason }, { status: 400 });
      }
      throw error;
    }
    return redirectWithToast(backTo(postId, target), { title: `${what} removed`, description: reason.trim(), type: "success" });
  });
}
