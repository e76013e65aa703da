import { createHash } from "node:crypto";
import type { LoaderFunctionArgs } from "react-router";
import type { FeedSource } from "~/models/feeds/atom-feed.server";
import type { Post } from "~/schemas/shapes";
import { feedTokenSettings, type FeedTokenSettings } from "~/models/feeds/feed-token.server";
import { APP_NAME, SITE_ICON_PATH } from "~/utils/brand";
import { env } from "~/utils/env.server";
import { isAppError } from "~/utils/errors";
import { escapeHtml } from "~/utils/mail.server";
import { contentTypeForKey } from "~/utils/media/storage.server";
import { truncate } from "~/utils/preview";
import { NO_STORE_VALUE, VISITOR_PUBLIC_VALUE, VISITOR_VALUE } from "./cache-control.server";
import { publicOrigin } from "./params.server";

/**
 * The HTTP side of the Atom feeds (issue 26, CONTRACT.md §7 "Feeds"): draws a FeedSource
 * (models/feeds/atom-feed.server.ts) as Atom 1.0 (RFC 4287), with absolute links on PUBLIC_URL (or the
 * request's own origin), and answers it with a validator. Each entry has the post's whole text, its
 * pictures, its tags as categories and its sounds and films as enclosures (ux-3 U22).
 *
 * - The ETag is a hash of the body: the feed carries no clock (its `updated` is its newest post's),
 *   so a reader polling an unchanged feed gets a 304, whatever else was written on the site.
 * - A public feed is `public` like a visitor's page (a shared cache keeps it briefly, the reader
 *   asks again with If-None-Match); a private club's, read with a member's token, is never stored.
 *   The HTTP edge's own validator and visitor cache skip `.atom` paths (conditional.server.ts), so
 *   nothing else keeps a copy; the request log drops the `token` value like every query value it
 *   does not list (request-log.server.ts `loggedPath`).
 * - Titles and summaries are the members' plain text: escaped as HTML here, since Atom's
 *   `type="html"` would otherwise let a title's `<script>` become markup
 *   in a reader; the HTML goes in CDATA, names and addresses are escaped as XML, and characters XML
 *   cannot hold are dropped.
 */

export const ATOM_CONTENT_TYPE = "application/atom+xml; charset=utf-8";
const SUMMARY_CHARS = 500;
/** The width a reader's picture is taken at: a phone screen's, from the stored sizes. */
const READER_IMAGE_WIDTH = 640;

/** The origin the feed's links use: the configured public address, else the one the request came to. */
export const feedOrigin = (request: Request) => env.PUBLIC_URL ?? publicOrigin(request);

const html = (text: string) => escapeHtml(text).replace(/\r?\n/g, "<br/>");

/** Characters XML 1.0 does not allow anywhere (controls but tab and line ends, U+FFFE/F, lone surrogates). */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- the control characters are what it removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const xmlSafe = (text: string) => text.replace(NOT_XML, "");
/** An attribute value or element text: XML's five characters escaped. */
const esc = (text: string) =>
  xmlSafe(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
/** HTML for a reader, as CDATA (a `]]>` inside is split across two sections). */
const cdata = (markup: string) => `<![CDATA[${xmlSafe(markup).replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
const attrs = (values: Record<string, string | number | null | undefined>) =>
  Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== null && entry[1] !== undefined && entry[1] !== "")
    .map(([name, value]) => ` ${name}="${esc(String(value))}"`)
    .join("");
const element = (name: string, values: Record<string, string | number | null | undefined>, body?: string) =>
  body === undefined ? `<${name}${attrs(values)}/>` : `<${name}${attrs(values)}>${body}</${name}>`;

/** A media address as a reader fetches it: absolute on the feed's origin, or null if it is no http(s) address. */
function absolute(url: string, origin: string): string | null {
  try {
    const resolved = new URL(url, origin);
    return resolved.protocol === "http:" || resolved.protocol === "https:" ? resolved.toString() : null;
  } catch {
    return null;
  }
}

/** The sound or film type of an address by its file name's extension, else null (a page, a picture). */
function playableType(url: string): string | null {
  const type = contentTypeForKey(new URL(url).pathname);
  return type.startsWith("audio/") || type.startsWith("video/") ? type : null;
}

type Enclosure = { href: string; type: string; length?: number | null; title?: string };

/**
 * What a reader or podcast app plays or shows of a post (ux-3 U22):
 * - enclosures: every uploaded sound or film (its type and length), and a media URL that is itself a
 *   sound or film file (`…/ep42.mp3`), so a podcast app can play a podcast post;
 * - related: a media URL that is a page (a video site, a podcast's page), linked, not enclosed;
 * - pictures: uploaded images, drawn in the entry's content at a phone's width.
 * A graphic post (`sensitive`, CONTRACT.md §14, ADR 0091) carries none of its pictures or videos, not
 * even as enclosures (a reader would fetch and show them): its content says they are on the post.
 */
function postMedia(post: Post, origin: string) {
  const enclosures: Enclosure[] = [];
  const pictures: { src: string; alt: string; width?: number | null; height?: number | null }[] = [];
  let withheld = 0;
  for (const file of post.uploadedFiles) {
    const href = absolute(file.url, origin);
    if (!href) continue;
    if (post.sensitive && file.type !== "audio") {
      withheld += 1;
      continue;
    }
    if (file.type === "image") {
      const variant = file.variants?.find((v) => v.width >= READER_IMAGE_WIDTH) ?? file.variants?.at(-1);
      const src = (variant && absolute(variant.url, origin)) ?? href;
      pictures.push({ src, alt: file.name, width: variant?.width ?? file.width, height: variant?.height ?? file.height });
    } else {
      enclosures.push({ href, type: contentTypeForKey(new URL(href).pathname), length: file.size, title: file.name });
    }
  }
  const media = post.mediaUrl ? absolute(post.mediaUrl, origin) : null;
  const mediaType = media ? playableType(media) : null;
  if (media && mediaType) enclosures.push({ href: media, type: mediaType });
  return { enclosures, pictures, related: media && !mediaType ? media : null, withheld, postUrl: `${origin}/post/${post.id}` };
}

/** The entry's content: the whole text, its pictures and its media link, as HTML. */
function entryContent(post: Post, media: ReturnType<typeof postMedia>): string {
  const parts = [`<p>${html(post.content)}</p>`];
  if (media.withheld) {
    parts.push(`<p><a href="${escapeHtml(media.postUrl)}">Graphic photo: open the post to see it</a></p>`);
  }
  for (const picture of media.pictures) {
    parts.push(
      `<p><img src="${escapeHtml(picture.src)}" alt="${escapeHtml(picture.alt)}"${picture.width ? ` width="${picture.width}"` : ""}${picture.height ? ` height="${picture.height}"` : ""}/></p>`,
    );
  }
  const links = [...(media.related ? [media.related] : []), ...media.enclosures.map((e) => e.href)];
  for (const href of links) parts.push(`<p><a href="${escapeHtml(href)}">${escapeHtml(href)}</a></p>`);
  return parts.join("");
}

function drawEntry(post: Post, origin: string): string {
  const url = `${origin}/post/${post.id}`;
  const date = new Date(post.createdAt).toISOString();
  const media = postMedia(post, origin);
  const author = `${origin}/profile/${encodeURIComponent(post.author.username)}`;
  return element(
    "entry",
    {},
    [
      element("title", { type: "html" }, cdata(escapeHtml(post.title))),
      element("id", {}, esc(url)),
      element("link", { href: url }),
      ...(media.related ? [element("link", { rel: "related", href: media.related })] : []),
      ...media.enclosures.map((e) => element("link", { rel: "enclosure", href: e.href, type: e.type, length: e.length, title: e.title })),
      element("updated", {}, date),
      element("published", {}, date),
      element("summary", { type: "html" }, cdata(html(truncate(post.content, SUMMARY_CHARS)))),
      element("content", { type: "html" }, cdata(entryContent(post, media))),
      element("author", {}, element("name", {}, esc(post.author.displayName)) + element("uri", {}, esc(author))),
      ...(post.tags ?? []).map((tag) => element("category", { term: tag, label: `#${tag}` })),
    ].join("\n"),
  );
}

/**
 * The Atom document of a feed source; `selfUrl` is the feed's own address (with its token, if any).
 * Written here, not with a feed package: a podcast post's enclosure needs its real type and length,
 * and a post may carry several (ADR 0087).
 */
export function drawAtom(source: FeedSource, origin: string, selfUrl: string): string {
  const newest = source.posts[0];
  const updated = (newest ? new Date(newest.createdAt) : new Date(0)).toISOString();
  const head = [
    element("id", {}, esc(selfUrl.replace(/\?.*$/, ""))),
    element("title", {}, esc(source.title)),
    element("subtitle", {}, esc(source.subtitle)),
    element("updated", {}, updated),
    element("link", { rel: "alternate", href: `${origin}${source.pagePath}` }),
    element("link", { rel: "self", href: selfUrl }),
    element("icon", {}, esc(`${origin}${SITE_ICON_PATH}`)),
    element("generator", {}, esc(APP_NAME)),
    element("rights", {}, esc(`${APP_NAME} and its members`)),
  ];
  const entries = source.posts.map((post) => drawEntry(post, origin));
  return `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n${[...head, ...entries].join("\n")}\n</feed>\n`;
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
