import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "react-router";
import { addComment, deleteComment, listCommentPage, pageEndingWith, updateComment } from "~/models/posts/comment.server";
import { deletePost, getPost, likePost, moderatesAs, sharePost, unlikePost, updatePost } from "~/models/posts/post.server";
import type { Actor } from "~/models/members/user.server";
import { BLOCK_MESSAGES, viewerBlocked, viewerBlockedBy } from "~/models/members/block.server";
import { safeRedirect } from "~/schemas/auth";
import { POST_NOT_FOUND, SIGN_IN } from "~/schemas/messages";
import { commentSchema, postUpdateSchema } from "~/schemas/post";
import type { PostActionData, PostIntent } from "~/schemas/post-intents";
import { badRequest, isAppError, isRefusal, notFound, unauthorized } from "~/utils/errors";
import { zodFieldErrors } from "~/utils/validation";
import { formReply, withLoaderErrors, withPageErrors } from "~/web/page-errors.server";
import { idParam, isScriptRequest, publicOrigin } from "~/web/params.server";
import { formKey, idempotent } from "~/web/idempotency.server";
import { getSessionUser } from "~/web/session.server";
import { jsonWithToast, redirectWithToast } from "~/web/toast.server";
import { readFormData } from "~/web/request-body.server";
import { fieldReportPicker, fieldReportPickerFor } from "~/web/field-report-picker.server";
import { LIST_COUNTIES_INTENT } from "~/schemas/field-report-form";

/**
 * The server half of /post/{id} (route.tsx), kept out of the route module so the validation code it
 * uses is never bundled into the page's JavaScript: the page's data, and one function per intent.
 */

/**
 * The post, one page of its comments (oldest first: the first page, or the one after `?comments=`)
 * and the link to share. A post the visitor may not see is as missing as one that does not exist.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  const actor = user ? { id: user.id } : null;
  return withLoaderErrors(
    request,
    async () => {
      const id = idParam(params.id, POST_NOT_FOUND);
      const cursor = new URL(request.url).searchParams.get("comments");
      const [post, page] = await Promise.all([getPost(actor, id), listCommentPage(actor, id, { cursor })]);
      // Site staff, or the club's staff for a club's post (CONTRACT.md §8): Remove and Restore forms.
      // A viewer who blocked the author is told so before the post is shown (ux-3 U9).
      const [moderates, blockedAuthor, blockedBy] = await Promise.all([
        moderatesAs(actor, post.clubId),
        viewerBlocked(actor, post.author.id),
        viewerBlockedBy(actor, post.author.id),
      ]);
      return data({
        post,
        blockedAuthor,
        // The author blocked the viewer: no comment box that cannot work, and why (ux-3 U3).
        cannotComment: blockedBy ? BLOCK_MESSAGES.comment : null,
        canModerate: moderates !== null,
        moderates,
        comments: page.comments,
        commentsFrom: page.from,
        nextComments: page.nextCursor,
        viewerId: user?.id ?? null,
        // The edit form drawn without JavaScript (?edit=1): its Field report's state and county lists.
        fieldPicker:
          actor && actor.id === post.author.id && new URL(request.url).searchParams.has("edit")
            ? await fieldReportPicker(actor, { county: post.field?.county.fips ?? null })
            : null,
        shareUrl: `${publicOrigin(request)}/post/${post.id}`,
        back: backLink(request),
      });
    },
    { notFound: POST_NOT_FOUND, hideForbidden: true },
  );
}

/** Pages "← Back" returns to, with their query (a search, filters, a tab), and what it says. */
const BACK_TARGETS: Array<{ test: RegExp; label: string }> = [
  { test: /^\/$/, label: "Back to feed" },
  { test: /^\/profile\/[A-Za-z0-9_]+\/?$/, label: "Back to profile" },
  { test: /^\/clubs\/\d+\/?$/, label: "Back to club" },
];

/**
 * Where the post page's back link goes (Beyond SPEC #5): the page the member came from, when the
 * Referer names this site's feed (with its filters), a profile or a club; else the feed. Only a
 * same-origin path is used (never another host), and only those pages.
 */
export function backLink(request: Request): { href: string; label: string } {
  const fallback = { href: "/", label: "Back to feed" };
  const referer = request.headers.get("Referer");
  if (!referer) return fallback;
  try {
    const from = new URL(referer);
    if (from.origin !== new URL(request.url).origin && from.origin !== publicOrigin(request)) return fallback;
    const target = BACK_TARGETS.find((t) => t.test.test(from.pathname));
    if (!target) return fallback;
    return { href: safeRedirect(`${from.pathname}${from.search}`), label: target.label };
  } catch {
    return fallback;
  }
}

/** What every intent's function gets: the post, who asks, the form, and whether a script (useFetcher) sent it. */
type PostRequest = { id: number; actor: Actor; form: FormData; script: boolean };

/** SPEC.md §8's sign-in notices, by intent. */
const SIGN_IN_MESSAGES: Partial<Record<PostIntent, string>> = {
  like: SIGN_IN.like,
  unlike: SIGN_IN.like,
  comment: SIGN_IN.comment,
  "update-comment": SIGN_IN.comment,
  "delete-comment": SIGN_IN.comment,
  share: SIGN_IN.share,
  update: SIGN_IN.editPost,
  delete: SIGN_IN.deletePost,
};

/**
 * Every post mutation (like, unlike, share, comment, delete-comment, update, delete) posts here.
 * Cards on any page post with a `redirectTo`; a plain form post ends in a redirect with a flash
 * toast, a fetcher gets JSON and stays in place. Permissions live in the domain functions.
 */
export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, postAction);
}

/**
 * Every post mutation (like, unlike, share, comment, delete-comment, update, delete). Cards on any
 * page post here with a `redirectTo`; a plain form post ends in a redirect with a flash toast, a
 * fetcher gets JSON and stays in place (a failure too: the card shows it as a toast). Permissions
 * live in the domain functions.
 */
export async function postAction({ request, params }: ActionFunctionArgs) {
  const id = idParam(params.id, POST_NOT_FOUND);
  const user = await getSessionUser(request);
  const post: PostRequest = {
    id,
    actor: user ? { id: user.id } : null,
    form: await readFormData(request),
    script: isScriptRequest(request),
  };
  const intent = String(post.form.get("intent") ?? "");
  try {
    // A form that creates something (the comment box) carries an idempotency key: a resend of it is
    // answered as the first time (CONTRACT.md §6).
    return await idempotent(request, user?.id, formKey(post.form), () => runIntent(intent, post));
  } catch (error) {
    if (!isAppError(error)) throw error;
    const failure = error.status === 401 ? unauthorized(SIGN_IN_MESSAGES[intent as PostIntent] ?? error.message) : error;
    // A fetcher stays in place and shows a toast; a plain form post goes on to withPageErrors
    // (401: to sign in and back; 403/404: the error page with its status; others: JSON).
    if (post.script)
      return data<PostActionData>({ intent, ok: false, error: failure.message, status: failure.status }, { status: failure.status });
    throw failure;
  }
}

async function runIntent(intent: string, post: PostRequest) {
  switch (intent) {
    case "like":
    case "unlike":
      return await likeAction(post, intent);
    case "share":
      return await shareAction(post);
    case "comment":
      return await commentAction(post);
    case "update-comment":
      return await updateCommentAction(post);
    case "delete-comment":
      return await deleteCommentAction(post);
    case "update":
      return await updateAction(post);
    case LIST_COUNTIES_INTENT:
      return await listCountiesAction(post);
    case "delete":
      return await deleteAction(post);
    default:
      throw badRequest("Unknown action");
  }
}

async function likeAction({ id, actor, form, script }: PostRequest, intent: "like" | "unlike") {
  const result = intent === "like" ? await likePost(actor, id) : await unlikePost(actor, id);
  if (script) return data<PostActionData>({ intent, ok: true, ...result });
  return redirect(safeRedirect(form.get("redirectTo"), `/post/${id}`));
}

async function shareAction({ id, actor, script }: PostRequest) {
  const result = await sharePost(actor, id);
  if (script) return data<PostActionData>({ intent: "share", ok: true, shares: result.shares });
  // Without JavaScript nothing can reach the clipboard: the post page shows the link to copy.
  return redirectWithToast(`/post/${id}?shared=1`, {
    title: "Post shared!",
    description: "Copy the link below to share it.",
    type: "success",
  });
}

async function commentAction({ id, actor, form, script }: PostRequest) {
  const raw = form.get("content");
  // SPEC.md §5: an empty or whitespace-only comment is ignored. With JavaScript the box never sends
  // it; a plain form post comes back to the page as it was, nothing posted and nothing to fix
  // (issue 31 N7). A script (or the JSON surface) that sends one is told why (400).
  if (!script && (typeof raw !== "string" || raw.trim() === ""))
    return redirect(safeRedirect(form.get("redirectTo"), `/post/${id}#comments`));
  const parsed = commentSchema.safeParse({ content: raw });
  if (!parsed.success) {
    const message = zodFieldErrors(parsed.error).content?.[0] ?? "Comment cannot be empty";
    return data<PostActionData>(
      { intent: "comment", ok: false, error: message, status: 400, content: typeof raw === "string" ? raw : "" },
      { status: 400 },
    );
  }
  let comment;
  try {
    comment = await addComment(actor, id, parsed.data);
  } catch (error) {
    // Fixable (a limit: 429, CONTRACT.md §5 and §8): back in the comment box with the message and
    // what was typed, with JavaScript or without. Refusals (401/403/404) go on as before.
    if (!isAppError(error) || isRefusal(error)) throw error;
    const headers = error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined;
    return data<PostActionData>(
      {
        intent: "comment",
        ok: false,
        error: error.message,
        status: error.status,
        content: typeof raw === "string" ? raw : parsed.data.content,
      },
      { status: error.status, headers },
    );
  }
  if (script) return data<PostActionData>({ intent: "comment", ok: true, commentId: comment.id, comment });
  // Without JavaScript the page that ends with the new comment, scrolled to it.
  const page = await pageEndingWith(id, comment.id);
  const to = page ? `/post/${id}?comments=${page}#comment-${comment.id}` : `/post/${id}#comments`;
  return redirectWithToast(to, { title: "Comment added", type: "success" });
}

function commentIdOf(form: FormData): number {
  const commentId = Number(form.get("commentId"));
  if (!Number.isSafeInteger(commentId) || commentId < 1) throw notFound("Comment not found");
  return commentId;
}

/**
 * Edit one's own comment, from the form at /post/{id}?edit-comment={commentId}: a redirect back to
 * the comment on success (with or without JavaScript); a blank or long text comes back to the form
 * with what was typed.
 */
async function updateCommentAction({ id, actor, form }: PostRequest) {
  const commentId = commentIdOf(form);
  const raw = form.get("content");
  const parsed = commentSchema.safeParse({ content: raw });
  if (!parsed.success) {
    const error = zodFieldErrors(parsed.error).content?.[0] ?? "Comment cannot be empty";
    const content = typeof raw === "string" ? raw : "";
    return data<PostActionData>({ intent: "update-comment", ok: false, error, status: 400, content, commentId }, { status: 400 });
  }
  try {
    await updateComment(actor, commentId, parsed.data);
  } catch (error) {
    // A limit (429) comes back in the edit box with the text, like a validation error; refusals go on.
    if (!isAppError(error) || isRefusal(error)) throw error;
    const headers = error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined;
    const content = typeof raw === "string" ? raw : parsed.data.content;
    return data<PostActionData>(
      { intent: "update-comment", ok: false, error: error.message, status: error.status, content, commentId },
      { status: error.status, headers },
    );
  }
  return redirectWithToast(`/post/${id}#comment-${commentId}`, { title: "Comment updated", type: "success" });
}

async function deleteCommentAction({ id, actor, form, script }: PostRequest) {
  const commentId = commentIdOf(form);
  await deleteComment(actor, commentId);
  if (script) return data<PostActionData>({ intent: "delete-comment", ok: true });
  return redirectWithToast(`/post/${id}#comments`, { title: "Comment deleted", type: "success" });
}

async function updateAction({ id, actor, form, script }: PostRequest) {
  const submission = parseWithZod(form, { schema: postUpdateSchema });
  const reply = { data: { intent: "update", ok: false } } as const;
  if (submission.status !== "success") return formReply(submission, reply);
  try {
    await updatePost(actor, id, submission.value);
  } catch (error) {
    // Refusals go on (to the catch above); anything else is shown on the form, keeping its values.
    return formReply(submission, { ...reply, error });
  }
  const toast = { title: "Post updated", description: "Your post has been updated successfully", type: "success" } as const;
  if (script) return jsonWithToast<PostActionData>({ intent: "update", ok: true }, toast);
  return redirectWithToast(`/post/${id}`, toast);
}

/**
 * "List counties" in the edit form's Field report without JavaScript: the form back as it was sent,
 * no message, the chosen state's counties listed. Nothing is saved.
 */
async function listCountiesAction({ actor, form }: PostRequest) {
  const { initialValue } = parseWithZod(form, { schema: postUpdateSchema }).reply();
  return data<PostActionData>({
    intent: "update",
    ok: false,
    result: { initialValue, error: {} },
    fieldPicker: await fieldReportPickerFor(actor, form),
  });
}

async function deleteAction({ id, actor }: PostRequest) {
  await deletePost(actor, id);
  return redirectWithToast("/", {
    title: "Post deleted",
    description: "Your post has been deleted successfully",
    type: "success",
  });
}
