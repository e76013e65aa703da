import { pushPublicKey } from "~/models/notifications/push.server";
import { apiLoader, jsonResponse } from "~/web/api.server";

/**
 * GET /api/push/key → 200 `{ publicKey }` (CONTRACT.md §7 "Web push"): the site's VAPID public key,
 * base64url, that a browser subscribes with. Public, the same for everyone, made once.
 */
export const loader = apiLoader(async () => jsonResponse({ publicKey: await pushPublicKey() }));
