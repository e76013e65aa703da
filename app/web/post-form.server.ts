import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "react-router";
import { requireMayPostIn } from "~/models/access.server";
import { discardUploads, ownPendingUploads } from "~/models/media/media.server";
import { createPost } from "~/models/posts/post.server";
import type { Actor } from "~/models/members/user.server";
import { postInputSchema } from "~/schemas/post";
import { parseMultipartUploads, UploadRefusedError } from "./multipart.server";
import { isRefusal } from "~/utils/errors";
import { BODY_LIMITS } from "./request-body.server";
import { redirectWithToast } from "./toast.server";
import { formKey, idempotent } from "./idempotency.server";
import { SIGN_IN } from "~/schemas/messages";
import { submissionFailure, withPageErrors } from "./page-errors.server";
import { requireActor, requireUser } from "./session.server";
import { sharedIntoCreate } from "./share.server";
import { fieldReportPicker, fieldReportPickerFor } from "./field-report-picker.server";
import { LIST_COUNTIES_INTENT } from "~/schemas/field-report-form";

/**
 * /create (SPEC.md §2 Create post): visitors are sent to sign in and brought back here. With
 * `?share=` (the share target, ADR 0092) the form opens with what the member shared: the text filled
 * in and the files attached (shown ticked, as after a failed submission), or a note that it is gone.
 */
export async function postEditorLoader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [shared, fieldPicker] = await Promise.all([sharedIntoCreate(request, user), fieldReportPicker(user)]);
  return data({ ...shared, fieldPicker });
}

/**
 * Publish from a post editor page, /create or a club's (`clubIdOf` reads the club from the URL): a
 * session that ended while the form was open means sign in and back, with SPEC.md §8's notice.
 * Route modules re-export these, so the browser build meets one server module for the page
 * (docs/decisions/0045).
 */
export async function publishFromEditor(args: ActionFunctionArgs, clubIdOf?: (params: ActionFunctionArgs["params"]) => number) {
  return withPageErrors(args, async ({ request, params }) => {
    const user = await requireActor(request, SIGN_IN.createPost);
    return createPostFromForm(request, user, { clubId: clubIdOf?.(params) });
  });
}

/** The editor's plain file input (no JavaScript); with JavaScript files arrive as `uploadedFiles` URLs. */
export const POST_FILES_FIELD = "files";

/**
 * Read the post editor's form. The editor posts `multipart/form-data` so files can travel with the
 * post: each file of the plain `files` input is streamed through the media pipeline as it arrives
 * (sniffed, 50 MB limit, EXIF stripped, stored) and its URL joins `uploadedFiles`, which createPost
 * attaches. Text parts are capped. A urlencoded body (no file input) is read as usual. A refused
 * file throws UploadRefusedError carrying the rest of the form.
 */
export async function readPostForm(request: Request, actor: Actor): Promise<FormData> {
  return (await readPostFormAndUploads(request, actor)).formData;
}

/** readPostForm, and the URLs of the files this request stored (not those uploaded before it). */
async function readPostFormAndUploads(request: Request, actor: Actor): Promise<{ formData: FormData; stored: string[] }> {
  const { formData, uploads } = await parseMultipartUploads(request, actor, {
    fileFields: [POST_FILES_FIELD],
    maxFiles: BODY_LIMITS.files,
  });
  for (const url of formData.getAll(POST_FILES_FIELD)) formData.append("uploadedFiles", url);
  formData.delete(POST_FILES_FIELD);
  return { formData, stored: uploads.map((u) => u.url) };
}

/** Files this form already stored: shown again, ticked, when the form comes back with an error. */
async function pendingUploads(actor: Actor, formData: FormData) {
  const files = await ownPendingUploads(
    actor,
    formData.getAll("uploadedFiles").filter((v): v is string => typeof v === "string"),
  );
  return files.map(({ id: _id, ...file }) => file);
}

/**
 * The create-post use case behind /create and /clubs/{id}/create: validate with postInputSchema
 * (the same schema Conform runs in the browser and /api/posts uses), call createPost (which checks
 * sign-in, the rate limit and club membership), then 'Post created!' and the post page, or the
 * club page for a club post. A failure answers the Conform reply, so the form keeps what was typed.
 */
export async function createPostFromForm(request: Request, actor: Actor, options: { clubId?: number } = {}) {
  // What can be refused before a byte is stored is refused first (security.md L12): a club the
  // member may not post in is 403/404 with the files unread.
  await requireMayPostIn(actor, options.clubId);
  let formData: FormData;
  let stored: string[];
  try {
    ({ formData, stored } = await readPostFormAndUploads(request, actor));
  } catch (error) {
    if (!(error instanceof UploadRefusedError)) throw error;
    // A refused file: everything typed comes back, with the reason above the form.
    if (options.clubId !== undefined) error.formData.set("clubId", String(options.clubId));
    const submission = parseWithZod(error.formData, { schema: postInputSchema });
    const headers = error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined;
    return data(
      {
        ...submission.reply({ formErrors: [`Failed to upload ${error.fileName ?? "a file"}: ${error.message}`] }),
        uploads: await pendingUploads(actor, error.formData),
      },
      { status: error.status, headers },
    );
  }
  if (options.clubId !== undefined) formData.set("clubId", String(options.clubId));
  if (formData.get("intent") === LIST_COUNTIES_INTENT) return listCounties(actor, formData);
  // A resend of the same form (its reply was lost) gets the first answer, not a second post.
  return idempotent(request, actor?.id, formKey(formData), () => createFromForm(actor, formData, stored));
}

/**
 * "List counties" in the Field report part of a plain form (no JavaScript): the same form back with
 * everything kept (its text, its files, shown ticked, the report) and no message, the chosen state's
 * counties listed in the county select. Nothing is published, and the form's idempotency key stays
 * unused for the real Publish.
 */
async function listCounties(actor: Actor, formData: FormData) {
  const submission = parseWithZod(formData, { schema: postInputSchema });
  const { initialValue } = submission.reply();
  return data({
    initialValue,
    error: {},
    uploads: await pendingUploads(actor, formData),
    fieldPicker: await fieldReportPickerFor(actor, formData),
  });
}

async function createFromForm(actor: Actor, formData: FormData, stored: string[]) {
  const submission = parseWithZod(formData, { schema: postInputSchema });
  if (submission.status !== "success") {
    return data({ ...submission.reply(), uploads: await pendingUploads(actor, formData) }, { status: 400 });
  }
  // The form has no preview field: whatever arrives as `urlMetadata` is not ours, so it is left out
  // and createPost fetches the media URL's preview on the server (cards then show it without
  // JavaScript and without a fetch of their own).
  const { urlMetadata: _untrusted, ...input } = submission.value;
  let post;
  try {
    post = await createPost(actor, input);
  } catch (error) {
    // Refused for good (a club the member may not post in, named in the form): the files this
    // request stored go again and do not count against the upload limit. An invalid or rate-limited
    // form keeps them, shown again ticked, so the member need not upload them twice.
    if (isRefusal(error)) await discardUploads(actor, stored, undefined, { refund: true });
    const { result, init } = submissionFailure(submission, { error });
    return data({ ...result, uploads: await pendingUploads(actor, formData) }, init);
  }
  return redirectWithToast(post.clubId ? `/clubs/${post.clubId}` : `/post/${post.id}`, {
    title: "Post created!",
    type: "success",
  });
}
