import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { addComment, deleteComment, listComments } from "~/models/comment.server";
import { deletePost, getPost, likePost, sharePost, unlikePost, updatePost } from "~/models/post.server";
import { safeRedirect } from "~/schemas/auth";
import { commentSchema, postUpdateSchema } from "~/schemas/post";
import { isAppError, notFound, unauthorized } from "~/utils/errors";
import { isScriptRequest } from "~/web/params.server";
import { POST_NOT_FOUND, type PostActionData, type PostIntent } from "~/schemas/post-intents";
import { getSessionUser } from "~/web/session.server";
import { jsonWithToast, redirectWithToast } from "~/web/toast.server";
import { zodFieldErrors } from "~/utils/validation";

/**
 * The server half of /post/{id} (app/routes/post.$id.tsx): kept out of the route module so the
 * validation code it uses is never bundled into the page's JavaScript.
 */

const NOT_FOUND = POST_NOT_FOUND;

/** `/post/abc`, `/post/0`, `/post/1e3`: not a post id, so not a post (404, never a crash). */
function postId(value: string | undefined): number {
  if (!value || !/^[1-9][0-9]{0,15}$/.test(value)) throw notFound(NOT_FOUND);
  return Number(value);
}

/** The post page's data: the post, its comments (oldest first) and the link to share. */
export async function loadPostPage({ request, params }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  const actor = user ? { id: user.id } : null;
  try {
    const id = postId(params.id);
    const [post, comments] = await Promise.all([getPost(actor, id), listComments(actor, id)]);
    return json({ post, comments, viewerId: user?.id ?? null, shareUrl: `${publicOrigin(request)}/post/${post.id}` });
  } catch (error) {
    if (isAppError(error) && (error.status === 404 || error.status === 403)) {
      // A post the visitor may not see is as missing as one that does not exist.
      throw json({ message: NOT_FOUND }, { status: 404 });
    }
    throw error;
  }
}

/** The site's address as the visitor sees it (behind a TLS-terminating proxy too). */
function publicOrigin(request: Request): string {
  const url = new URL(request.url);
  const proto = request.headers.get("X-Forwarded-Proto")?.split(",")[0]?.trim() || url.protocol.replace(":", "");
  const host = request.headers.get("X-Forwarded-Host") ?? request.headers.get("Host") ?? url.host;
  return `${proto}://${host}`;
}

/** SPEC.md §8's sign-in notices, by intent. */
const SIGN_IN_MESSAGES: Partial<Record<PostIntent, string>> = {
  like: "Please sign in to like posts",
  unlike: "Please sign in to like posts",
  comment: "Please sign in to comment",
  "delete-comment": "Please sign in to comment",
  share: "Please sign in to share posts",
  update: "Please log in to edit posts",
  delete: "Please log in to delete posts",
};

/**
 * Every post mutation (like, unlike, share, comment, delete-comment, update, delete). Cards on any
 * page post here with a `redirectTo`; a plain form post ends in a redirect with a flash toast, a
 * fetcher gets JSON and stays in place. Permissions live in the domain functions.
 */
export async function handlePostAction({ request, params }: ActionFunctionArgs): Promise<Response> {
  const id = postId(params.id);
  const user = await getSessionUser(request);
  const actor = user ? { id: user.id } : null;
  const script = isScriptRequest(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "") as PostIntent;
  const back = safeRedirect(form.get("redirectTo"), `/post/${id}`);

  try {
    switch (intent) {
      case "like":
      case "unlike": {
        const result = intent === "like" ? await likePost(actor, id) : await unlikePost(actor, id);
        if (script) return json<PostActionData>({ intent, ok: true, ...result });
        return redirect(back);
      }

      case "share": {
        const result = await sharePost(actor, id);
        if (script) return json<PostActionData>({ intent, ok: true, shares: result.shares });
        // Without JavaScript nothing can reach the clipboard: the post page shows the link to copy.
        return redirectWithToast(`/post/${id}?shared=1`, {
          title: "Post shared!",
          description: "Copy the link below to share it.",
          type: "success",
        });
      }

      case "comment": {
        const raw = form.get("content");
        const parsed = commentSchema.safeParse({ content: raw });
        if (!parsed.success) {
          const message = zodFieldErrors(parsed.error).content?.[0] ?? "Comment cannot be empty";
          return json<PostActionData>(
            { intent, ok: false, error: message, status: 400, content: typeof raw === "string" ? raw : "" },
            { status: 400 },
          );
        }
        const comment = await addComment(actor, id, parsed.data);
        if (script) return json<PostActionData>({ intent, ok: true, commentId: comment.id });
        return redirectWithToast(`/post/${id}#comments`, { title: "Comment added", type: "success" });
      }

      case "delete-comment": {
        const commentId = Number(form.get("commentId"));
        if (!Number.isSafeInteger(commentId) || commentId < 1) throw notFound("Comment not found");
        await deleteComment(actor, commentId);
        if (script) return json<PostActionData>({ intent, ok: true });
        return redirectWithToast(`/post/${id}#comments`, { title: "Comment deleted", type: "success" });
      }

      case "update": {
        const submission = parseWithZod(form, { schema: postUpdateSchema });
        if (submission.status !== "success") {
          return json<PostActionData>({ intent, ok: false, result: submission.reply() }, { status: 400 });
        }
        try {
          await updatePost(actor, id, submission.value);
        } catch (error) {
          // Refusals go on (403/404/401 below); anything else is shown on the form, keeping its values.
          if (!isAppError(error) || [401, 403, 404].includes(error.status)) throw error;
          const fieldErrors = error.fieldErrors ?? {};
          const formErrors = Object.keys(fieldErrors).length ? [] : [error.message];
          return json<PostActionData>(
            { intent, ok: false, result: submission.reply({ formErrors, fieldErrors }) },
            { status: error.status },
          );
        }
        const toast = { title: "Post updated", description: "Your post has been updated successfully", type: "success" } as const;
        if (script) return jsonWithToast<PostActionData>({ intent, ok: true }, toast);
        return redirectWithToast(`/post/${id}`, toast);
      }

      case "delete": {
        await deletePost(actor, id);
        return redirectWithToast("/", {
          title: "Post deleted",
          description: "Your post has been deleted successfully",
          type: "success",
        });
      }

      default:
        return json({ intent, ok: false, error: "Unknown action", status: 400 }, { status: 400 });
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    const failure = error.status === 401 ? unauthorized(SIGN_IN_MESSAGES[intent] ?? error.message) : error;
    // A fetcher stays in place and shows a toast; a plain form post goes through pageAction
    // (401: to sign in and back; 403/404: the error page with its status; others: JSON).
    if (script) return json<PostActionData>({ intent, ok: false, error: failure.message, status: failure.status }, { status: failure.status });
    throw failure;
  }
}
