import { markRead } from "~/models/notifications/notification.server";
import { markReadSchema } from "~/schemas/notifications";
import { apiAction, methodNotAllowed, readJson } from "~/web/api.server";
import { requireActor } from "~/web/session.server";

/**
 * POST /api/notifications/read `{ ids? }` → 204 (CONTRACT.md §7): these of the member's notifications,
 * or all of them without `ids`. Another member's ids are left alone. Signed out 401, bad body 400.
 */
export const action = apiAction({
  POST: async ({ request }) => {
    const member = await requireActor(request);
    const { ids } = await readJson(request, markReadSchema);
    await markRead(member, ids);
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  },
});

export const loader = methodNotAllowed;
