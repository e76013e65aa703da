import { data } from "react-router";
import { listClubs } from "~/models/clubs/club.server";
import { parseClubListQuery } from "~/schemas/club";
import { getSessionUser } from "~/web/session.server";

export type ClubListTab = "all" | "public" | "mine";

/**
 * /clubs?tab=all|public|mine&search=&cursor=. Beside the route so the query schema (zod) stays out
 * of the page's browser bundle.
 */
export async function loadClubList(request: Request) {
  const user = await getSessionUser(request);
  const url = new URL(request.url);
  const requested = url.searchParams.get("tab");
  const tab: ClubListTab = requested === "public" ? "public" : requested === "mine" && user ? "mine" : "all";
  const query = parseClubListQuery(url.searchParams);
  const page = await listClubs(user, {
    search: query.search,
    cursor: query.cursor,
    onlyPublic: tab === "public",
    onlyMine: tab === "mine",
  });
  return data({ clubs: page.clubs, nextCursor: page.nextCursor, tab, search: query.search ?? "", signedIn: Boolean(user) });
}
