import { CLUB_NOT_FOUND } from "~/schemas/club-options";
import { APP_NAME } from "~/utils/brand";
import { notFound } from "~/utils/errors";
import { tagKey } from "~/utils/tags";
import { getClubRow, getMembership } from "~/models/access.server";
import { listFeed } from "./feed.server";
import { memberByFeedToken } from "./feed-token.server";
import { getProfile } from "~/models/members/profile.server";
import type { Post } from "~/schemas/shapes";

/**
 * What each Atom feed holds (issue 26, CONTRACT.md §7 "Feeds"): the 20 newest posts a visitor may
 * read there, through the same feed queries as the pages (feed.server.ts), so removed and hidden
 * posts and private clubs' posts stay out exactly as they do on the pages. A private club's feed is
 * read as the member whose personal feed token came with it (feed-token.server.ts), and is a 404 for
 * anyone else, so its existence is not confirmed. The Atom itself is drawn in web/atom-feed.server.ts.
 */

export const ATOM_FEED_SIZE = 20;

export type FeedSource = {
  title: string;
  subtitle: string;
  /** The page the feed mirrors, as a path. */
  pagePath: string;
  posts: Post[];
  /** Read with a member's token: no shared cache may keep it. */
  personal: boolean;
};

/** Someone's own hidden post is in their lists (with its notice); a feed shows what everyone else sees. */
const visible = (posts: Post[]) => posts.filter((post) => !post.hidden);

/** The site feed: what a visitor's home shows first. */
export async function homeFeedSource(): Promise<FeedSource> {
  const { posts } = await listFeed(null, { limit: ATOM_FEED_SIZE });
  return { title: APP_NAME, subtitle: `The newest posts on ${APP_NAME}`, pagePath: "/", posts: visible(posts), personal: false };
}

export const TAG_NOT_FOUND = "Tag Not Found";

/**
 * A tag's feed: what the home page's `#tag` search shows a visitor, newest first. A tag nobody's
 * visible post carries (or one with no letters or digits) is a 404.
 */
export async function tagFeedSource(tag: string): Promise<FeedSource> {
  const word = tag.trim();
  if (!word || word.length > 100 || /[\s#]/.test(word) || !tagKey(word)) throw notFound(TAG_NOT_FOUND);
  const search = `#${word}`;
  const { posts } = await listFeed(null, { search, limit: ATOM_FEED_SIZE });
  if (!posts.length) throw notFound(TAG_NOT_FOUND);
  return {
    title: `${search} · ${APP_NAME}`,
    subtitle: `Posts tagged ${search} on ${APP_NAME}`,
    pagePath: `/?${new URLSearchParams({ search })}`,
    posts: visible(posts),
    personal: false,
  };
}

/** A member's feed: their posts as a visitor sees them on the profile (404 for no such member). */
export async function memberFeedSource(username: string): Promise<FeedSource> {
  const profile = await getProfile(null, username);
  const { posts } = await listFeed(null, { authorId: profile.id, limit: ATOM_FEED_SIZE });
  return {
    title: `${profile.displayName} (@${profile.username}) · ${APP_NAME}`,
    subtitle: `Posts by ${profile.displayName} on ${APP_NAME}`,
    pagePath: `/profile/${encodeURIComponent(profile.username)}`,
    posts: visible(posts),
    personal: false,
  };
}

/**
 * A club's feed. A public club's is anyone's; a private club's answers only to the personal feed
 * token of one of its members (404 otherwise, the same answer as no such club).
 */
export async function clubFeedSource(clubId: number, token: string | null): Promise<FeedSource> {
  const club = await getClubRow(clubId);
  if (!club) throw notFound(CLUB_NOT_FOUND);
  let reader: { id: number } | null = null;
  if (club.isPrivate) {
    const member = await memberByFeedToken(token);
    if (!member || !(await getMembership(clubId, member.id))) throw notFound(CLUB_NOT_FOUND);
    reader = { id: member.id };
  }
  const { posts } = await listFeed(reader, { clubId, limit: ATOM_FEED_SIZE });
  return {
    title: `${club.name} · ${APP_NAME}`,
    subtitle: club.description,
    pagePath: `/clubs/${club.id}`,
    posts: visible(posts),
    personal: club.isPrivate,
  };
}
