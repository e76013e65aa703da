import { listBlocks, unblockMember } from "~/models/members/block.server";
import type { SessionUser } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

/** Settings › Privacy › Blocked members: its data and its Unblock form (CONTRACT.md §8 "Blocks"). */

const PRIVACY = "/settings?tab=privacy";

/** One page of the member's blocks (`?blocked=` is the list's cursor) and the link to the next. */
export async function blockedMembersOf(user: SessionUser, url: URL) {
  const page = await listBlocks(user, { cursor: url.searchParams.get("blocked") });
  const moreHref = page.nextCursor ? `${PRIVACY}&${new URLSearchParams({ blocked: page.nextCursor })}` : null;
  return { members: page.blocks, moreHref };
}

/** Unblock (a plain form): back to the list, saying whom. An unknown member is 404, as everywhere. */
export async function unblockAction(user: SessionUser, formData: FormData) {
  const username = String(formData.get("username") ?? "");
  await unblockMember(user, username);
  return redirectWithToast(PRIVACY, { title: "Unblocked", description: `You unblocked @${username}.` });
}
