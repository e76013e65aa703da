import { createHash } from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { PAGE_VALIDATOR_INPUTS, type PageValidatorInput } from "~/utils/render-cache-keys";
import { dataVersion } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { pagePath } from "~/utils/data-path";
import { MEMBER_VALUE, readsReferer, varyFor, VISITOR_PUBLIC_VALUE } from "~/web/cache-control.server";
import { viewerKey } from "~/web/session.server";
import { hasPendingToast } from "~/web/toast.server";

/**
 * Validators for every document, loader data (`.data`, and an older page's `?_data=`) and `/api/*` GET (CONTRACT.md §6,
 * docs/decisions/0032-validators-and-shared-caching.md), computed before anything renders.
 *
 * A page is a function of: the build and configuration, the data (the data version, which every
 * committed write moves on), whom it is drawn for (visitor, or member and session), its URL, the
 * request headers it reads (Host and X-Forwarded-Proto for links, Save-Data, the Referer on a post
 * page whose back link follows it), and the clock
 * ("3 minutes ago", trending's decay): the minute is part of it, so a validator never vouches for
 * a page more than a minute older than the one the server would draw now. Hash those and you
 * have the page's ETag without drawing it: a match is a 304 from the HTTP edge, before Remix.
 *
 * No validator (and so never a 304) when the answer will carry a Set-Cookie: a toast still to show
 * (the page shows it and clears the cookie) or a session cookie that names no live session.
 */

/** Seconds of clock a validator covers. */
export const CLOCK_BUCKET_S = 60;

/**
 * The build's assets and uploads (they have their own), the health check and any file name, matched
 * on the page's path: a page's data (`/post/3.data`, docs/decisions/0079) is no file.
 */
const SKIPPED = /^\/(assets|media)\/|^\/healthz$|\.[A-Za-z0-9]+$/;

/**
 * Settings that say where and how this one process runs, never what a page shows: left out of the
 * validator, so every node of a site (each on its own port, only one seeding the demo, its own pool,
 * log level or upload mount) gives a page the same ETag and a copy one node validated is a 304 on
 * the next (nginx balances a client's requests over them).
 */
export const NODE_LOCAL_SETTINGS =
  /^(PORT|HOST|SEED_DEMO|LOG_LEVEL|DATABASE_PATH|DATABASE_URL|DATABASE_POOL_SIZE|UPLOAD_DIR|BACKUP_\w+|VISITOR_CACHE_MB|\w+_TIMEOUT_MS)$/;

/** The configuration a page validator covers: the non-secret settings that are the same on every node. */
export function validatorConfig(settings: Record<string, unknown>): [string, unknown][] {
  return Object.entries(settings).filter(([name]) => !/SECRET|KEY/.test(name) && !NODE_LOCAL_SETTINGS.test(name));
}

let buildHash: string | undefined;
/** The server build (its bytes carry the client manifest's version) and the site's configuration. */
function buildId(): string {
  if (buildHash) return buildHash;
  const hash = createHash("sha256");
  try {
    hash.update(fs.readFileSync(fileURLToPath(import.meta.url)));
  } catch {
    hash.update(String(process.pid));
  }
  hash.update(JSON.stringify(validatorConfig(env)));
  buildHash = hash.digest("base64url").slice(0, 16);
  return buildHash;
}

/** A path the validator covers: not the build's assets, uploads or public files (they have their own), nor the health check (no session work). */
export function validatedPath(path: string): boolean {
  return !SKIPPED.test(pagePath(path));
}

/** The weak ETag of the answer to this GET, or null when it gets none. */
export async function validatorFor(request: Request, now: number = Date.now()): Promise<string | null> {
  return (await pageValidator(request, now))?.etag ?? null;
}

/** A page's validator, and whether it is drawn for a visitor (the same for every visitor). */
export type PageValidator = { etag: string; visitor: boolean };

/** What a validator's inputs are read from. */
type ValidatorContext = { request: Request; url: URL; viewer: string; now: number };

/** One reader per declared input (PAGE_VALIDATOR_INPUTS): the hash takes them in the list's order. */
const VALIDATOR_READERS: Record<PageValidatorInput, (c: ValidatorContext) => unknown> = {
  build: () => buildId(),
  data: () => dataVersion(),
  viewer: (c) => c.viewer,
  url: (c) => c.url.pathname + c.url.search,
  host: (c) => c.request.headers.get("Host") ?? "",
  proto: (c) => c.request.headers.get("X-Forwarded-Proto") ?? "",
  saveData: (c) => c.request.headers.get("Save-Data") ?? "",
  referer: (c) => (readsReferer(c.url.pathname) ? (c.request.headers.get("Referer") ?? "") : ""),
  minute: (c) => Math.floor(c.now / (CLOCK_BUCKET_S * 1000)),
};

/** The hash of a validator's inputs, read in PAGE_VALIDATOR_INPUTS' order. */
export async function validatorHash(context: ValidatorContext): Promise<string> {
  const inputs = Object.keys(PAGE_VALIDATOR_INPUTS) as PageValidatorInput[];
  const parts = await Promise.all(inputs.map((name) => VALIDATOR_READERS[name](context)));
  return createHash("sha256").update(parts.map(String).join("\n")).digest("base64url").slice(0, 27);
}

async function pageValidator(request: Request, now: number): Promise<PageValidator | null> {
  if (await hasPendingToast(request)) return null;
  const viewer = await viewerKey(request, now);
  if (viewer === null) return null;
  const etag = `W/"${await validatorHash({ request, url: new URL(request.url), viewer, now })}"`;
  return { etag, visitor: viewer === "v" };
}

/** RFC 9110 §13.1.2: `If-None-Match` holds `*` or a list of (weak or strong) tags, compared weakly. */
export function ifNoneMatchHits(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = opaque(etag);
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === wanted);
}

/** The Cache-Control a 304 repeats (the stored answer keeps what it had otherwise). */
const notModifiedCacheControl = (viewer: boolean) => (viewer ? VISITOR_PUBLIC_VALUE : MEMBER_VALUE);

/** A GET or HEAD's page validator, or null when its path or answer gets none. */
export async function validatorOf(request: Request, now: number = Date.now()): Promise<PageValidator | null> {
  if (!validatedPath(new URL(request.url).pathname)) return null;
  return pageValidator(request, now);
}

/** The client's copy is current (`If-None-Match`): a 304 is sent, before anything renders (true). */
export function notModified(req: IncomingMessage, res: ServerResponse, { etag, visitor }: PageValidator): boolean {
  if (!ifNoneMatchHits(req.headers["if-none-match"], etag)) return false;
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  res.writeHead(304, { ETag: etag, "Cache-Control": notModifiedCacheControl(visitor), Vary: varyFor(path) });
  res.end();
  return true;
}

/**
 * The app's answer is in `res`, its head not yet written: a 200 the app left without a validator
 * gets this one, unless it sets a cookie or must not be stored; and an answer that sets a cookie is
 * never public.
 */
export function stampValidator(res: ServerResponse, etag: string): void {
  const cacheControl = String(res.getHeader("Cache-Control") ?? "");
  const setsCookie = res.hasHeader("Set-Cookie");
  if (setsCookie && /\bpublic\b/i.test(cacheControl)) res.setHeader("Cache-Control", MEMBER_VALUE);
  if (res.statusCode === 200 && !setsCookie && !res.hasHeader("ETag") && !/\bno-store\b/i.test(cacheControl)) res.setHeader("ETag", etag);
}
