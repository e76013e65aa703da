import { linkPreviewRequestSchema } from "~/schemas/media";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { getLinkMetadata } from "~/utils/link-metadata.server";
import { consumeLimit } from "~/utils/rate-limit.server";
import { clientAddress } from "~/web/params.server";
import { getSessionUser } from "~/web/session.server";

/**
 * POST /api/fetch-url-metadata `{ url }` (SPEC.md §7, CONTRACT.md §4): 200 with the link metadata,
 * or 200 `{ error }` when the page gives none (unreachable, not HTML, a non-public address …).
 * Open to visitors too (issue 14 #12: a visitor's feed shows the same cards as a member's). The
 * server fetches other sites on the caller's behalf, so: only public http(s) addresses (the SSRF
 * guard in `getLinkMetadata`), every answer cached per URL, and each fetch the server actually makes
 * (a cached preview is free) counts against a limit per member (`linkPreviewsPerUser`, by id) or,
 * signed out, per address (`linkPreviewsPerIp`, an IPv6 /64), 429 with Retry-After past it. Posts
 * carry their preview from publication on (docs/decisions/0008-media-storage-and-processing.md), so
 * these calls are rare. A malformed URL is a 400.
 */
export const action = apiAction({
  POST: async ({ request }) => {
    const { url } = await readJson(request, linkPreviewRequestSchema);
    const member = await getSessionUser(request);
    const count = member
      ? () => consumeLimit("linkPreviewsPerUser", String(member.id))
      : () => consumeLimit("linkPreviewsPerIp", clientAddress(request).ip);
    const metadata = await getLinkMetadata(url, {}, { beforeFetch: count });
    return jsonResponse(metadata, { headers: { "Cache-Control": "private, no-store" } });
  },
});

export const loader = methodNotAllowed;
