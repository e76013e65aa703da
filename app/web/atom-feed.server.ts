import { createHash } from "node:crypto";
import type { LoaderFunctionArgs } from "react-router";
import { Feed } from "feed";
import type { FeedSource } from "~/models/feeds/atom-feed.server";
import { feedTokenSettings, type FeedTokenSettings } from "~/models/feeds/feed-token.server";
import { APP_NAME } from "~/utils/brand";
import { env } from "~/utils/env.server";
import { isAppError } from "~/utils/errors";
import { escapeHtml } from "~/utils/mail.server";
import { truncate } from "~/utils/preview";
import { NO_STORE_VALUE, VISITOR_PUBLIC_VALUE, VISITOR_VALUE } from "./cache-control.server";
import { publicOrigin } from "./params.server";

/**
 * The HTTP side of the Atom feeds (issue 26, CONTRACT.md §7 "Feeds"): draws a FeedSource
 * (models/feeds/atom-feed.server.ts) as Atom 1.0 with the `feed` package, with absolute links on
 * PUBLIC_URL (or the request's own origin), and answers it with a validator.
 *
 * - The ETag is a hash of the body: the feed carries no clock (its `updated` is its newest post's),
 *   so a reader polling an unchanged feed gets a 304, whatever else was written on the site.
 * - A public feed is `public` like a visitor's page (a shared cache keeps it briefly, the reader
 *   asks again with If-None-Match); a private club's, read with a member's token, is never stored.
 *   The HTTP edge's own validator and visitor cache skip `.atom` paths (conditional.server.ts), so
 *   nothing else keeps a copy; the request log drops the `token` value like every query value it
 *   does not list (request-log.server.ts `loggedPath`).
 * - Titles and summaries are the members' plain text: escaped as HTML here, since Atom's
 *   `type="html"` (which the package writes) would otherwise let a title's `<script>` become markup
 *   in a reader; the package escapes the XML.
 */

export const ATOM_CONTENT_TYPE = "application/atom+xml; charset=utf-8";
const SUMMARY_CHARS = 500;

/** The origin the feed's links use: the configured public address, else the one the request came to. */
export const feedOrigin = (request: Request) => env.PUBLIC_URL ?? publicOrigin(request);

const html = (text: string) => escapeHtml(text).replace(/\r?\n/g, "<br/>");

/** The Atom document of a feed source; `selfUrl` is the feed's own address (with its token, if any). */
export function drawAtom(source: FeedSource, origin: string, selfUrl: string): string {
  const newest = source.posts[0];
  const feed = new Feed({
    id: selfUrl.replace(/\?.*$/, ""),
    title: source.title,
    description: source.subtitle,
    link: `${origin}${source.pagePath}`,
    feed: selfUrl,
    language: "en",
    generator: APP_NAME,
    copyright: `${APP_NAME} and its members`,
    updated: newest ? new Date(newest.createdAt) : new Date(0),
  });
  for (const post of source.posts) {
    const url = `${origin}/post/${post.id}`;
    const date = new Date(post.createdAt);
    feed.addItem({
      id: url,
      link: url,
      title: escapeHtml(post.title),
      description: html(truncate(post.content, SUMMARY_CHARS)),
      date,
      published: date,
      author: [{ name: post.author.displayName, link: `${origin}/profile/${encodeURIComponent(post.author.username)}` }],
    });
  }
  return feed.atom1();
}

/** RFC 9110 §13.1.2: `If-None-Match` holds `*` or a list of tags, compared weakly (also /sw.js's check). */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === opaque(etag));
}

/** The answer to a feed's GET: 200 with the feed, or 304 when the reader's copy is current. */
export function atomResponse(request: Request, source: FeedSource): Response {
  const origin = feedOrigin(request);
  const url = new URL(request.url);
  const token = source.personal ? url.searchParams.get("token") : null;
  const selfUrl = `${origin}${url.pathname}${token ? `?${new URLSearchParams({ token })}` : ""}`;
  const body = drawAtom(source, origin, selfUrl);
  const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const headers = new Headers({
    ETag: etag,
    "Cache-Control": source.personal ? NO_STORE_VALUE : VISITOR_PUBLIC_VALUE,
    "X-Content-Type-Options": "nosniff",
    // A private feed's URL holds its token: never sent on as a Referer.
    "Referrer-Policy": "no-referrer",
  });
  if (ifNoneMatchHits(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", ATOM_CONTENT_TYPE);
  return new Response(body, { status: 200, headers });
}

/**
 * A feed route's loader: the source's feed, or the error family's refusal as plain text (an unknown
 * tag, member or club, a private club without a member's token: 404). Anything else is a server error.
 */
export function atomLoader(read: (args: LoaderFunctionArgs) => Promise<FeedSource>) {
  return async (args: LoaderFunctionArgs): Promise<Response> => {
    try {
      return atomResponse(args.request, await read(args));
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      return new Response(`${error.message}\n`, {
        status: error.status,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": VISITOR_VALUE, "X-Content-Type-Options": "nosniff" },
      });
    }
  };
}

/** `/feeds/tags/rut.atom`'s `rut.atom` → `rut`; a segment without the suffix is no feed (null). */
export function atomName(segment: string | undefined): string | null {
  if (!segment?.endsWith(".atom")) return null;
  const name = segment.slice(0, -".atom".length);
  return name || null;
}

/**
 * Settings › Notifications' "Private club feeds" piece (app/components/settings/feed-token.tsx), as
 * its props (FeedTokenPanelProps there): the feed links' origin, the member's token (none is made on a GET) and their private
 * clubs. The page that shows it holds a secret: its loader answers `NO_STORE` (it already does for the email).
 */
export async function loadFeedTokenPanel(request: Request, actor: { id: number }): Promise<FeedTokenSettings & { origin: string }> {
  return { origin: feedOrigin(request), ...(await feedTokenSettings(actor)) };
}
