import { CASE_NOT_FOUND, decideCase } from "~/models/moderation/report.server";
import { decisionSchema } from "~/schemas/report";
import { apiAction, jsonResponse, methodNotAllowed, readJson } from "~/web/api.server";
import { idParam } from "~/web/params.server";
import { requireActor } from "~/web/session.server";

/**
 * POST /api/moderation/reports/{id} {action: dismiss|remove, reason?} → 200 {id, status}
 * (CONTRACT.md §8 "Queue"): staff whose scope covers the case; remove needs a reason and applies to
 * posts and comments (400 for a member or a club); 401 / 403 / 404; 409 when it was decided already.
 */
export const action = apiAction({
  POST: async ({ request, params }) => {
    const id = idParam(params.id, CASE_NOT_FOUND);
    const actor = await requireActor(request);
    const input = await readJson(request, decisionSchema);
    const { status } = await decideCase(actor, id, input);
    return jsonResponse({ id, status });
  },
});

export const loader = methodNotAllowed;
