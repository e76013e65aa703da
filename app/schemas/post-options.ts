/**
 * The post options as plain constants, with no zod: pages that only show them (the home feed's
 * filter bar, badges, Popular Topics) import this module so the validation library stays out of
 * their JavaScript. app/schemas/post.ts re-exports everything here.
 */

export const POST_TYPES = ["article", "opinion", "video", "podcast"] as const;
export type PostType = (typeof POST_TYPES)[number];

export const POST_TYPE_LABELS: Record<PostType, string> = {
  article: "Article",
  opinion: "Opinion",
  video: "Video",
  podcast: "Podcast",
};

export const FEED_TYPES = ["all", ...POST_TYPES] as const;
export type FeedType = (typeof FEED_TYPES)[number];

export const SORT_OPTIONS = ["recent", "popular", "discussed", "oldest"] as const;
export type SortOption = (typeof SORT_OPTIONS)[number];

export const SORT_LABELS: Record<SortOption, string> = {
  recent: "Most Recent",
  popular: "Most Popular",
  discussed: "Most Discussed",
  oldest: "Oldest First",
};

export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 50;
export const TITLE_MAX = 200;
export const CONTENT_MIN = 10;
export const CONTENT_MAX = 10_000;
export const COMMENT_MAX = 2_000;
export const FEED_PAGE_SIZE = 20;
export const FEED_MAX_LIMIT = 50;

/** SPEC.md §2 Popular Topics: clicking one searches `#BowHunting` style hashtags. */
export const POPULAR_TOPICS = [
  "Bow Hunting",
  "Rifle Hunting",
  "Scouting Tips",
  "Trail Cameras",
  "Food Plots",
  "Habitat Management",
  "Deer Behavior",
  "Hunting Stories",
] as const;
export const topicHashtag = (topic: string) => `#${topic.replace(/\s+/g, "")}`;
