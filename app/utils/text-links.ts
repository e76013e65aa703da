/**
 * Links and @mentions in what a member writes (CONTRACT.md §8 first-day caps; §7 will make mentions
 * links). Browser-safe, so a form could say the same before it is sent.
 *
 * The site shows post and comment text as plain text: there is no linkifier yet, so this is the one
 * rule for what counts as a link in a text. A link is an http(s) URL (`https://example.com/x`) or a
 * bare domain a reader would follow (`example.com`, `www.example.com/path`): labels of letters,
 * digits and hyphens, ending in a country's two-letter domain or a common generic one (as linkifiers
 * do, so "great hunt.Thanks" is not a link). An email address is not a link, and neither is its domain. The same address written twice (with or without `https://`,
 * `www.` or a final `/`) is one link.
 */
import { mentionedUsernames } from "./mentions";

/** An http(s) URL, up to the first space or closing bracket/quote. */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'()[\]{}]+/gi;
/** A bare domain with an optional path: not inside a word, an email address or a longer name. */
const DOMAIN_PATTERN =
  /(?<![\w@.\-/:])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}(?![\w@-]|\.[a-z0-9])(?:[/?#][^\s<>"'()[\]{}]*)?/gi;
/** Generic top-level domains a bare address is recognised by (any two-letter country domain is too). */
const GENERIC_TLDS = new Set(
  (
    "com org net edu gov mil int info biz name pro app dev io ai co xyz online site shop store blog news " +
    "live club link click top tech cloud page website space fun life world today email media social"
  ).split(" "),
);
const isTld = (tld: string) => tld.length === 2 || GENERIC_TLDS.has(tld.toLowerCase());

/** Punctuation that ends a sentence rather than the address. */
const TRAILING = /[.,;:!?]+$/;

/** The same address however it was written: no scheme, no `www.`, no final slash, lower case. */
function linkKey(link: string): string {
  return link
    .replace(TRAILING, "")
    .replace(/^https?:\/\//i, "")
    .replace(/^www\./i, "")
    .replace(/\/+$/, "")
    .toLowerCase();
}

/** The distinct links in `texts` (see above), as keys. */
export function linksIn(...texts: (string | null | undefined)[]): Set<string> {
  const found = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    // URLs first, then bare domains in what is left (a URL's own host is not counted twice).
    const rest = text.replace(URL_PATTERN, (url) => {
      const key = linkKey(url);
      if (key) found.add(key);
      return " ";
    });
    for (const match of rest.matchAll(DOMAIN_PATTERN)) {
      const host = match[0].split(/[/?#]/, 1)[0]!;
      if (isTld(host.slice(host.lastIndexOf(".") + 1))) found.add(linkKey(match[0]));
    }
  }
  return found;
}

/** The distinct usernames mentioned in `texts`, lower case, all of them (the first-day cap counts every one; mentions.ts is the rule). */
export function mentionsIn(...texts: (string | null | undefined)[]): Set<string> {
  return new Set(texts.flatMap((text) => mentionedUsernames(text, Infinity)));
}
