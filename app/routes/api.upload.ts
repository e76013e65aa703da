import { apiAction, jsonResponse, methodNotAllowed } from "~/web/api.server";
import { invalid } from "~/utils/errors";
import { assertDeclaredSize, parseMultipartUploads } from "~/web/multipart.server";
import { requireActor } from "~/web/session.server";

/**
 * POST /api/upload, multipart with one file in the field `file` (SPEC.md §7, CONTRACT.md §2):
 * 201 `{ url, type, name, width?, height?, variants? }`. 401 for visitors (before any byte of the
 * body is read), 413 over 50 MB, 415 when the bytes are not an image, video or audio file, 429
 * over the upload rate limit.
 */
export const action = apiAction({
  POST: async ({ request }) => {
    const actor = await requireActor(request);
    assertDeclaredSize(request);
    const { uploads } = await parseMultipartUploads(request, actor, { fileFields: ["file"], maxFiles: 1 });
    const file = uploads[0];
    if (!file) throw invalid({ file: ["Choose a file to upload"] }, "Choose a file to upload");
    const { id: _id, ...body } = file;
    return jsonResponse(body, { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});

export const loader = methodNotAllowed;
