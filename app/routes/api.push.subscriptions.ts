import { subscribe, unsubscribe } from "~/models/notifications/push.server";
import { pushEndpointSchema, pushSubscriptionSchema } from "~/schemas/push";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { getSignedIn, requireActor } from "~/web/session.server";

/**
 * POST /api/push/subscriptions `{ endpoint, keys: { p256dh, auth } }` → 201 `{ endpoint }`: this
 * browser's push subscription is kept for the signed-in member (CONTRACT.md §7 "Web push"). The
 * endpoint must be https on a public address (400 with the reason otherwise). It is tied to the
 * request's session: when that session ends (sign out, Settings › Security) the subscription goes.
 * DELETE `{ endpoint }` → 204: forget it (only one's own; idempotent). Signed out: 401; bad body: 400.
 */
export const action = apiAction({
  POST: async ({ request }) => {
    const member = await requireActor(request, "Please sign in to turn on push notifications");
    const body = await readJson(request, pushSubscriptionSchema);
    // Tied to this browser's session: signing out here (or ending the session anywhere) drops it (issue 26).
    const sessionId = (await getSignedIn(request))?.sessionId ?? null;
    return jsonResponse(await subscribe(member, body, sessionId), { status: 201 });
  },
  DELETE: async ({ request }) => {
    const member = await requireActor(request, "Please sign in to turn off push notifications");
    const { endpoint } = await readJson(request, pushEndpointSchema);
    await unsubscribe(member, endpoint);
    return new Response(null, { status: 204 });
  },
});

export const loader = methodNotAllowed;
