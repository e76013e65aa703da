import { createElement, useContext, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { FRAMEWORK_CONTEXTS as CONTEXTS } from "~/utils/framework-internals";
import { CLIENT_RENDERED_BOUNDARY } from "./draw-document.server";
import { visitorCacheLookups } from "~/utils/metrics.server";

/**
 * The server's render cache store for `RenderCached` parts (components/ui/render-cache.tsx,
 * docs/caching.md): each part's inside drawn once per distinct cache key (render-cache-keys.ts) and
 * kept, most recently used first.
 *
 * A part is drawn on its own with `renderToString` (React supports a synchronous render inside
 * another) under the same router and Remix contexts the page gives it, so links, fetchers and
 * `useLocation` inside it answer as they would in place. A part that leaves a boundary for the
 * browser (a lazy part not loaded yet) is not kept: it is drawn in place instead.
 */

/**
 * What is kept, keys and HTML together, is bounded in characters (about 16 MB as one-byte text): a
 * card is 2 to 4 KB of HTML with a key about as long, a whole page of cards about 20 times that. The
 * least recently used go first.
 */
const MAX_KEPT_CHARS = 16 * 1024 * 1024;
const kept = new Map<string, string>();
let keptChars = 0;

function useContexts(): unknown[] {
  return [
    useContext(CONTEXTS[0]!),
    useContext(CONTEXTS[1]!),
    useContext(CONTEXTS[2]!),
    useContext(CONTEXTS[3]!),
    useContext(CONTEXTS[4]!),
    useContext(CONTEXTS[5]!),
    useContext(CONTEXTS[6]!),
    useContext(CONTEXTS[7]!),
  ];
}

/**
 * Verify mode (RENDER_CACHE_VERIFY=1; the e2e suite runs with it in CI): every hit is drawn afresh
 * as well and compared with what was kept. A difference means the key leaves out something the part
 * shows (render-cache-keys.ts), and the request fails loudly: the error names the key and where the
 * two draws part, and the page is a 500.
 */
let verify = process.env.RENDER_CACHE_VERIFY === "1";

/** Tests: turn verify mode on or off. */
export function setRenderCacheVerify(on: boolean) {
  verify = on;
}

export class RenderCacheMismatch extends Error {
  constructor(key: string, kept: string, fresh: string) {
    let at = 0;
    while (at < kept.length && kept[at] === fresh[at]) at++;
    const around = (html: string) => JSON.stringify(html.slice(Math.max(0, at - 60), at + 60));
    super(
      `Render cache verify: the part kept for key ${key.slice(0, 300)} differs from a fresh draw at character ${at}: ` +
        `kept ${around(kept)}, fresh ${around(fresh)}. Its cache key leaves out something it shows (app/utils/render-cache-keys.ts).`,
    );
    this.name = "RenderCacheMismatch";
  }
}

function render(element: ReactElement, contexts: unknown[]): string {
  return renderToString(
    CONTEXTS.reduceRight<ReactElement>((child, context, i) => createElement(context.Provider, { value: contexts[i] }, child), element),
  );
}

function draw(key: string, element: ReactElement, contexts: unknown[]): string | null {
  const hit = kept.get(key);
  visitorCacheLookups.inc({ result: hit === undefined ? "miss" : "hit" });
  if (hit !== undefined) {
    kept.delete(key);
    kept.set(key, hit);
    if (verify) {
      const fresh = render(element, contexts);
      if (fresh !== hit && !fresh.includes(CLIENT_RENDERED_BOUNDARY)) {
        const error = new RenderCacheMismatch(key, hit, fresh);
        console.error(error.message);
        throw error;
      }
    }
    return hit;
  }
  const html = render(element, contexts);
  if (html.includes(CLIENT_RENDERED_BOUNDARY)) return null;
  keep(key, html);
  return html;
}

function keep(key: string, html: string) {
  keptChars += key.length + html.length;
  kept.set(key, html);
  for (const [oldKey, oldHtml] of kept) {
    if (keptChars <= MAX_KEPT_CHARS) break;
    kept.delete(oldKey);
    keptChars -= oldKey.length + oldHtml.length;
  }
}

export const renderCacheStore = { useContexts, draw };

/** Tests: forget every kept part. */
export function forgetRenderCache() {
  kept.clear();
  keptChars = 0;
}

/** Tests: how much is kept, in entries and characters. */
export function renderCacheSize() {
  return { entries: kept.size, chars: keptChars };
}
