import { eq } from "drizzle-orm";
import { users } from "#db/schema";
import { db } from "~/utils/db.server";
import { requireSignedIn } from "~/models/access.server";
import type { Actor } from "./user.server";

/**
 * Settings › Privacy › Data saver (CONTRACT.md §6): the member's own setting, and only theirs.
 * Pages read it with the session (web/session.server.ts); Save-Data: on asks for the same per request.
 */
export async function setDataSaver(actor: Actor, on: boolean): Promise<void> {
  const me = requireSignedIn(actor);
  await db.update(users).set({ dataSaver: on }).where(eq(users.id, me.id));
}
