import { json } from "@remix-run/node";
import { linkPreviewRequestSchema } from "~/schemas/media";
import { apiAction, methodNotAllowed, readJson } from "~/web/api.server";
import { getLinkMetadata } from "~/utils/link-metadata.server";
import { consumeLimit } from "~/utils/rate-limit.server";
import { requireActor } from "~/web/session.server";

/**
 * POST /api/fetch-url-metadata `{ url }` (SPEC.md §7, CONTRACT.md §4): 200 with the link metadata,
 * or 200 `{ error }` when the page gives none (unreachable, not HTML, a non-public address …).
 * Members only (401 for visitors): the server fetches other sites on the caller's behalf, and only
 * people who can publish need a live preview; posts carry their preview from publication on. The
 * server's fetches count against the member's `linkPreviewsPerUser` limit (a cached preview is free)
 * (docs/decisions/0008-media-storage-and-processing.md). A malformed URL is a 400.
 */
export const action = apiAction({
  POST: async ({ request }) => {
    const actor = await requireActor(request);
    const { url } = await readJson(request, linkPreviewRequestSchema);
    // Each fetch the server makes for a member counts (429 with Retry-After past 60 an hour).
    const metadata = await getLinkMetadata(url, {}, { beforeFetch: () => consumeLimit("linkPreviewsPerUser", String(actor.id)) });
    return json(metadata, { headers: { "Cache-Control": "private, no-store" } });
  },
});

export const loader = methodNotAllowed;
