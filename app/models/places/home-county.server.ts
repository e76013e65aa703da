import { eq } from "drizzle-orm";
import { users } from "#db/schema";
import { requireSignedIn } from "~/models/access.server";
import type { Actor } from "~/models/members/user.server";
import { getCounty, type County } from "~/utils/counties/counties.server";
import { db, first } from "~/utils/db.server";
import { requireCounty } from "./hunt-day.server";

/**
 * Settings › Profile › Home county (CONTRACT.md §14): the county /hunt-day opens on. Optional, the
 * member's own (never shown to anyone else), kept as a FIPS code the site's county list knows.
 */
export async function getHomeCounty(actor: Actor): Promise<County | null> {
  if (!actor) return null;
  const row = first(await db.select({ homeCounty: users.homeCounty }).from(users).where(eq(users.id, actor.id)));
  return getCounty(row?.homeCounty) ?? null;
}

/** Set (a FIPS code the list knows: 400 otherwise) or clear (`null`) the member's home county. */
export async function setHomeCounty(actor: Actor, fips: string | null): Promise<County | null> {
  const me = requireSignedIn(actor);
  const county = fips === null ? null : requireCounty(fips);
  await db
    .update(users)
    .set({ homeCounty: county?.fips ?? null })
    .where(eq(users.id, me.id));
  return county;
}
