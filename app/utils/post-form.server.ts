import { parseWithZod } from "@conform-to/zod/v4";
import { json, unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { createPost } from "~/models/post.server";
import type { Actor } from "~/models/user.server";
import { postInputSchema } from "~/schemas/post";
import { tooLarge } from "./errors";
import { replyWithError } from "./page.server";
import { redirectWithToast } from "./toast.server";

/** A text field of the editor is at most 10,000 characters; anything far larger is refused. */
const MAX_TEXT_PART_BYTES = 256 * 1024;

/**
 * Read the post editor's form. The editor posts `multipart/form-data` so files can travel with the
 * post; this is THE one place that reads that body: the media issue replaces the file branch below
 * (today file parts are drained and dropped) with streaming each file to storage and appending its
 * URL as `uploadedFiles`. Text parts are collected with a size cap. A urlencoded body (a client that
 * ignores the form's enctype) is read as usual.
 */
export async function readPostForm(request: Request): Promise<FormData> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!contentType.startsWith("multipart/form-data")) return request.formData();

  const handler: UploadHandler = async ({ filename, data }) => {
    if (filename !== undefined) {
      // File part (media issue): not stored yet. Drain it so the parser can move on.
      for await (const _chunk of data) {
        /* discard */
      }
      return undefined;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of data) {
      size += chunk.byteLength;
      if (size > MAX_TEXT_PART_BYTES) throw tooLarge("The form is too large");
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString("utf8");
  };
  return unstable_parseMultipartFormData(request, handler);
}

/**
 * The create-post use case behind /create and /clubs/{id}/create: validate with postInputSchema
 * (the same schema Conform runs in the browser and /api/posts uses), call createPost (which checks
 * sign-in, the rate limit and club membership), then 'Post created!' and the post page, or the
 * club page for a club post. A failure answers the Conform reply, so the form keeps what was typed.
 */
export async function createPostFromForm(request: Request, actor: Actor, options: { clubId?: number } = {}) {
  const formData = await readPostForm(request);
  if (options.clubId !== undefined) formData.set("clubId", String(options.clubId));
  const submission = parseWithZod(formData, { schema: postInputSchema });
  if (submission.status !== "success") {
    return json(submission.reply(), { status: 400 });
  }
  let post;
  try {
    post = await createPost(actor, submission.value);
  } catch (error) {
    return replyWithError(submission, error);
  }
  return redirectWithToast(post.clubId ? `/clubs/${post.clubId}` : `/post/${post.id}`, {
    title: "Post created!",
    type: "success",
  });
}
