import { reportTarget } from "~/models/moderation/report.server";
import { reportSchema } from "~/schemas/report";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { requireActor } from "~/web/session.server";

/**
 * POST /api/reports {targetType: post|comment|user|club, targetId, reason, details?} → 201 {id}
 * (CONTRACT.md §8 "Reports"): 401 signed out, 400 bad input or one's own content, 404 nothing the
 * member can see there, 409 reported by this member before.
 */
export const action = apiAction({
  POST: async ({ request }) => {
    const actor = await requireActor(request);
    const input = await readJson(request, reportSchema);
    return jsonResponse(await reportTarget(actor, input), { status: 201 });
  },
});

export const loader = methodNotAllowed;
