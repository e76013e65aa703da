import { eq } from "drizzle-orm";
import { users } from "#db/schema";
import { db } from "~/utils/db.server";
import { requireSignedIn } from "~/models/access.server";
import type { Actor } from "./user.server";

/**
 * Settings › Privacy › "Blur graphic photos" (CONTRACT.md §14, on for every member until they turn it
 * off): the member's own setting, and only theirs. Pages read it with the session
 * (web/session.server.ts), and it is part of the page's validator and the saved pages' viewer.
 */
export async function setBlurGraphic(actor: Actor, on: boolean): Promise<void> {
  const me = requireSignedIn(actor);
  await db.update(users).set({ blurGraphic: on }).where(eq(users.id, me.id));
}
