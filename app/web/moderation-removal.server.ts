import * as z from "zod/mini";
import {
  COMMENT_GONE,
  POST_GONE,
  removeContent,
  restoreContent,
  type ModeratedTarget,
} from "~/models/moderation/moderation-removal.server";
import { setPostSensitive } from "~/models/moderation/moderation-sensitive.server";
import { jsonResponse, readJson } from "./api.server";
import { idParam } from "./params.server";
import { requireActor } from "./session.server";

/**
 * The removal API (CONTRACT.md §8 "Removal"): `POST /api/moderation/{posts|comments}/{id}/remove`
 * `{ reason }` and `…/restore`, each → 200 `{ id, hidden, removalReason }`. The model checks who may
 * (site staff, or the club's staff for club content) and the reason.
 */

/** The reason is checked by the model (trimmed, 1..500), so a missing one gets the same message as a blank one. */
const removalBody = z.object({ reason: z.optional(z.unknown()) });

export type RemovalAnswer = { id: number; hidden: boolean; removalReason: string | null };

const targetOf = (type: ModeratedTarget["type"], id: string | undefined): ModeratedTarget => ({
  type,
  id: idParam(id, type === "post" ? POST_GONE : COMMENT_GONE),
});

export async function removeByApi(type: ModeratedTarget["type"], request: Request, id: string | undefined): Promise<Response> {
  const target = targetOf(type, id);
  const actor = await requireActor(request);
  const body = await readJson(request, removalBody);
  await removeContent(actor, target, body.reason as string);
  const reason = typeof body.reason === "string" ? body.reason.trim() : "";
  return jsonResponse({ id: target.id, hidden: true, removalReason: reason } satisfies RemovalAnswer);
}

export async function restoreByApi(type: ModeratedTarget["type"], request: Request, id: string | undefined): Promise<Response> {
  const target = targetOf(type, id);
  await restoreContent(await requireActor(request), target);
  return jsonResponse({ id: target.id, hidden: false, removalReason: null } satisfies RemovalAnswer);
}

const sensitiveBody = z.object({ sensitive: z.boolean({ error: "Say whether it is a graphic photo (sensitive: true or false)" }) });

/** `POST /api/moderation/posts/{id}/sensitive` `{ sensitive }` → 200 `{ id, sensitive }` (CONTRACT.md §14): whoever may remove the post. */
export async function sensitiveByApi(request: Request, id: string | undefined): Promise<Response> {
  const target = targetOf("post", id);
  const actor = await requireActor(request);
  const body = await readJson(request, sensitiveBody);
  return jsonResponse(await setPostSensitive(actor, target.id, body.sensitive));
}
