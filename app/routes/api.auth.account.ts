import { deleteAccount } from "~/models/members/account.server";
import { accountDeletionSchema } from "~/schemas/profile";
import { apiAction, methodNotAllowed, readJson } from "~/web/api.server";
import { requireActor } from "~/web/session.server";
import { signOutHeaders } from "~/web/sign-out.server";

/**
 * DELETE /api/auth/account `{password}` → 204, signed out (CONTRACT.md §6). A wrong password is 400
 * with fieldErrors.password and changes nothing; anonymous: 401.
 */
export const action = apiAction({
  DELETE: async ({ request }) => {
    const actor = await requireActor(request);
    await deleteAccount(actor, await readJson(request, accountDeletionSchema));
    return new Response(null, { status: 204, headers: await signOutHeaders(request) });
  },
});

export const loader = methodNotAllowed;
