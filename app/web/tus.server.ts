import { ReadableStream as NodeReadableStream } from "node:stream/web";
import { Server, type Locker, type Upload } from "@tus/server";
import { MAX_UPLOAD_BYTES } from "~/schemas/media";
import { isAppError } from "~/utils/errors";
import { getResumableStore } from "~/utils/media/tus-store.server";
import { DatabaseLocker } from "~/utils/media/upload-lock.server";
import { TOO_LARGE_MESSAGE } from "~/models/media/media.server";
import {
  finishResumable,
  forgetResumable,
  mayStartResumable,
  newResumableId,
  recordResumable,
  requireOwnResumable,
  resumableResult,
} from "~/models/media/resumable-upload.server";
import type { Actor } from "~/models/members/user.server";
import { errorResponse, jsonResponse } from "./api.server";
import { assertSameOrigin } from "./origin.server";
import { getSessionUser } from "./session.server";

/**
 * The tus protocol at /api/uploads (docs/decisions/0035-resumable-uploads.md): `@tus/server` answers
 * create (POST), PATCH, HEAD and DELETE; every request is first checked in the domain
 * (resumable-upload.server.ts: a member starts, only that member continues). GET on an upload is
 * ours: the stored file it became, for a client whose finishing reply was lost.
 *
 * The request tus gets is rebuilt around a stream that pulls from the request's body, chunk by chunk
 * (nothing is buffered), so that a body cut off by a dropped connection ends there instead of
 * failing: every byte the server received is kept, on either store (docs/decisions/0056-upload-chunks-and-resume.md).
 */

export const TUS_PATH = "/api/uploads";

/**
 * One lock per upload id, shared through the database by every process and node: two requests of one
 * upload never write at once, wherever they land; a newer one asks the holder to let go
 * (utils/media/upload-lock.server.ts, docs/decisions/0062-upload-locks-in-the-database.md).
 */
const uploadLocker = new DatabaseLocker();

type TusRequest = Parameters<Server["handleWeb"]>[0];

/** The request as @tus/server reads it: method, URL, headers and a native body stream. */
export function tusRequest(request: Request): TusRequest {
  const source = request.body;
  let body: ReadableStream<Uint8Array> | null = null;
  if (source) {
    const reader = source.getReader();
    body = new NodeReadableStream<Uint8Array>({
      async pull(controller) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch {
          // The connection dropped mid-PATCH: what arrived is the file's next bytes, in order. The
          // body ends here rather than failing, so the store keeps them (S3's store would otherwise
          // throw away the part it was filling) and the client resumes from the last byte received.
          controller.close();
          return;
        }
        if (read.done) controller.close();
        else controller.enqueue(read.value);
      },
      cancel: (reason) => reader.cancel(reason),
    }) as ReadableStream<Uint8Array>;
  }
  return { method: request.method, url: request.url, headers: request.headers, body, signal: request.signal } as unknown as TusRequest;
}

/** A domain refusal as tus passes it on: the status and our JSON error body. */
function tusError(error: unknown): never {
  if (isAppError(error)) {
    throw { status_code: error.status, body: JSON.stringify({ error: error.message }) };
  }
  throw error;
}

/**
 * A tus server for this request. `checkedId` is the upload the domain checked the actor may touch:
 * tus finds its own id in the URL, and acts only when the two agree, so no difference in how the
 * URL is read can point tus at an upload nobody checked (security-2, notes from the code).
 */
function serverFor(actor: Actor, checkedId: string | null, locker: Locker): Server {
  return new Server({
    path: TUS_PATH,
    datastore: getResumableStore(),
    locker,
    relativeLocation: true,
    maxSize: MAX_UPLOAD_BYTES,
    namingFunction: () => newResumableId(),
    getFileIdFromRequest: (_req, id) => (id !== undefined && id === checkedId ? id : undefined),
    async onUploadCreate(_req, upload: Upload) {
      try {
        await recordResumable(actor, upload.id, upload.size);
      } catch (error) {
        tusError(error);
      }
      return {};
    },
    async onUploadFinish(_req, upload: Upload) {
      try {
        const stored = await finishResumable(actor, upload.id, upload.metadata?.filename);
        const { id: _id, ...file } = stored;
        return { status_code: 200, headers: { "Content-Type": "application/json" }, body: JSON.stringify(file) };
      } catch (error) {
        return tusError(error);
      }
    },
    onResponseError(_req, error) {
      if ("status_code" in error && error.status_code === 413 && !error.body.startsWith("{")) {
        return { status_code: 413, body: JSON.stringify({ error: TOO_LARGE_MESSAGE }) };
      }
      return undefined;
    },
  });
}

/** The upload id of `/api/uploads/<id>`, or null for the collection itself. */
function uploadId(request: Request): string | null {
  const rest = new URL(request.url).pathname.slice(TUS_PATH.length).replace(/^\/+|\/+$/g, "");
  return rest ? decodeURIComponent(rest) : null;
}

/**
 * Every /api/uploads request: checked, then handed to tus (or answered here for GET). `locker` is
 * this process's; a test passes another to play a second app node.
 */
export async function handleTus(request: Request, locker: Locker = uploadLocker): Promise<Response> {
  try {
    const method = request.method.toUpperCase();
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") assertSameOrigin(request);
    const actor = await getSessionUser(request);
    const id = uploadId(request);
    if (id === null) {
      if (method !== "POST" && method !== "OPTIONS") {
        return jsonResponse({ error: `Method ${method} is not allowed here` }, { status: 405, headers: { Allow: "POST" } });
      }
      if (method === "POST") await mayStartResumable(actor);
    } else {
      if (method === "POST") return jsonResponse({ error: "Method POST is not allowed here" }, { status: 405 });
      if (method === "GET") return jsonResponse(await resumableResult(actor, id), { headers: { "Cache-Control": "no-store" } });
      if (method !== "OPTIONS") await requireOwnResumable(actor, id);
    }
    const response = await serverFor(actor, id, locker).handleWeb(tusRequest(request) as unknown as Request);
    if (method === "DELETE" && id && response.status === 204) await forgetResumable(actor, id);
    response.headers.set("Cache-Control", "no-store");
    return response;
  } catch (error) {
    const response = errorResponse(error);
    response.headers.set("Tus-Resumable", "1.0.0");
    return response;
  }
}
