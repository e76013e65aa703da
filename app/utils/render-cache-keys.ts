import { timeAgo } from "~/utils/time-ago";

/**
 * Every cache key in one list (docs/caching.md): what each part the render cache keeps
 * (render-cache.tsx) shows, and what each page validator (server/conditional.server.ts) covers. A part
 * or a page that shows something its key leaves out is served stale or to the wrong person: add
 * the input here, in the same change that makes the part show it. Verify mode
 * (RENDER_CACHE_VERIFY=1, on for the whole e2e suite in CI) draws every kept part in place as well
 * and fails the request on any difference.
 */

/** What a card reads from the page around it: the URL (the club label and the dialog links), data saver (pictures), "Blur graphic photos" (ADR 0091). */
export type CardPage = { pathname: string; search: string; dataSaver: boolean; blurGraphic: boolean };
/** A card's own props, as PostCard takes them. */
export type CardKeyProps = { post: { id: number; createdAt: string }; viewerId: number | null; redirectTo: string };

export const renderCacheKeys = {
  /** A feed card: its props (the viewer decides the owner menu and the like button), the URL, data saver, the clock ("3 hours ago"). */
  card: (page: CardPage, { post, viewerId, redirectTo }: CardKeyProps) => [
    "card",
    post,
    viewerId,
    redirectTo,
    page.pathname,
    page.search,
    page.dataSaver,
    page.blurGraphic,
    timeAgo(new Date(post.createdAt)),
  ],
  /** The home's first page of cards as a whole: every card's key, the filters, the next page's cursor, pages appended in place. */
  feed: (cards: unknown[], filters: unknown, nextCursor: unknown, more: unknown) => ["feed", cards, filters, nextCursor, more],
  /** The home's trending sidebar: the same for every viewer until trending changes. */
  trending: (trending: unknown) => ["trending", trending],
} as const;

/**
 * What a page's validator (its weak ETag, server/conditional.server.ts) is a function of, in the order
 * it hashes them. The validator is built from this list: each input here has its reader there (the
 * type requires one per name), so a page that shows anything else adds it here, and the compiler
 * then asks for the reader.
 */
export const PAGE_VALIDATOR_INPUTS = {
  build: "build and non-secret configuration",
  data: "data version (every committed write moves it on)",
  viewer: "viewer: visitor, or member and session (with their data saver and graphic photo settings)",
  url: "path and query",
  host: "Host header",
  proto: "X-Forwarded-Proto header",
  saveData: "Save-Data header",
  referer: "Referer header, on pages whose back link follows it",
  minute: "clock minute (CLOCK_BUCKET_S)",
} as const;

export type PageValidatorInput = keyof typeof PAGE_VALIDATOR_INPUTS;
