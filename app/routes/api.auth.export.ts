import { exportAccount } from "~/models/members/account.server";
import { apiLoader } from "~/web/api.server";
import { exportResponse } from "~/web/account-export.server";
import { requireActor } from "~/web/session.server";

/**
 * GET /api/auth/export: the signed-in member's own data as a JSON file to save (CONTRACT.md §6), or
 * 401. Settings › Privacy's "Download my data" is a plain GET form to this address.
 */
export const loader = apiLoader(async ({ request }) => exportResponse(await exportAccount(await requireActor(request))));
