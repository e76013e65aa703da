import { isIP } from "node:net";
import { env } from "~/utils/env.server";
import { AppError } from "~/utils/errors";

/**
 * What a request says about itself, read once here so every route reads it the same way.
 */

/** A numeric route id: `/post/abc`, `/clubs/0`, `/api/posts/1e3` are a 404, never a crash. */
export function idParam(value: string | undefined, notFoundMessage = "Not found"): number {
  if (!value || !/^[1-9][0-9]{0,15}$/.test(value)) throw new AppError(404, notFoundMessage);
  return Number(value);
}

/**
 * The entry a chain of `trustProxy` reverse proxies vouches for in a comma-separated forwarding
 * header (`X-Forwarded-Proto`, `X-Forwarded-For`): the Nth from the right, since each proxy appends
 * and anything further left came from the client. With no trusted proxy, none. A list shorter than
 * N (proxies that replace the header rather than append) gives its leftmost entry.
 */
export function forwardedBy(header: string | null, trustProxy: number): string | undefined {
  if (trustProxy <= 0 || !header) return undefined;
  const entries = header.split(",").map((entry) => entry.trim());
  return entries[Math.max(0, entries.length - trustProxy)] || undefined;
}

/**
 * The header the server sets on the app's request to the socket's remote address
 * (app/server/node-server.server.ts `fetchRequest`), never passing on a copy a client sent: the
 * request the app gets carries no socket.
 */
export const PEER_ADDRESS_HEADER = "x-pulse-peer-address";

/**
 * Who is asking, for the per-address limits (CONTRACT.md §6, docs/decisions/0019-client-address-and-sign-in-limits.md,
 * amended by docs/decisions/0054-every-peer-counted-and-loopback-behind-a-proxy.md). `ip` is the socket's address, or behind
 * `TRUST_PROXY` proxies the `X-Forwarded-For` entry the nearest trusted proxy appended; `X-Real-IP` is
 * never read. A proxy is believed only when the socket comes from a loopback or private network,
 * where a reverse proxy sits: a client that reaches the app directly (a public interface, a firewall
 * left open) is counted by its own socket whatever it writes in the header. Every peer is counted
 * (`trusted: true`), also a proxy that forwards for others while `TRUST_PROXY=0` (everyone behind it
 * shares one count: an operator who forgot the setting, warned about once) and a proxy that sent no
 * usable entry. Only a request with no address from the edge at all (`trusted: false`, "unknown")
 * is not counted, since it would be one bucket for every such caller.
 */
export type ClientAddress = { ip: string; trusted: boolean };

let warnedUntrustedProxy = false;
let warnedDirectPeer = false;

export function clientAddress(request: Request, trustProxy = env.TRUST_PROXY): ClientAddress {
  const peer = normaliseAddress(request.headers.get(PEER_ADDRESS_HEADER));
  if (!peer) return { ip: "unknown", trusted: false };
  const forwardedFor = request.headers.get("X-Forwarded-For");
  const forwards = Boolean(forwardedFor || request.headers.has("X-Real-IP"));
  if (trustProxy > 0 && isLocalAddress(peer)) {
    const vouched = normaliseAddress(forwardedBy(forwardedFor, trustProxy) ?? null);
    return { ip: bucketOf(vouched ?? peer), trusted: true };
  }
  if (trustProxy > 0 && forwards && !warnedDirectPeer) {
    warnedDirectPeer = true;
    console.warn(
      `A request from ${peer} carries X-Forwarded-For, but TRUST_PROXY believes only proxies on loopback or private networks: ` +
        "it is counted by its own address. If clients can reach the app directly, listen on loopback (HOST=127.0.0.1, docs/deploy/running.md).",
    );
  }
  if (trustProxy === 0 && forwards && isLocalAddress(peer) && !warnedUntrustedProxy) {
    warnedUntrustedProxy = true;
    console.warn(
      `Requests from ${peer} carry X-Forwarded-For: if a reverse proxy is in front, set TRUST_PROXY to the number of proxies. ` +
        "Until then everyone behind it counts as one address for the per-address limits (docs/decisions/0054-every-peer-counted-and-loopback-behind-a-proxy.md).",
    );
  }
  return { ip: bucketOf(peer), trusted: true };
}

/**
 * What a per-address limit counts: an IPv4 address, or an IPv6 address's /64 — one subscriber
 * usually holds a whole /64 and could otherwise step through 2^64 addresses, one per attempt.
 */
function bucketOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = "", tail] = address.split("%")[0]!.split("::") as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])) : []);
  const front = groups(head);
  const full = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - groups(tail).length).fill("0"), ...groups(tail)];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/** An IP address in one spelling (IPv4-mapped IPv6 as IPv4, lower case), or null if it is not one. */
function normaliseAddress(value: string | null): string | null {
  const address = value
    ?.trim()
    .toLowerCase()
    .replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  return address && isIP(address) ? address : null;
}

/** Loopback, private (RFC 1918, IPv6 unique-local) or link-local: where a reverse proxy would sit. */
function isLocalAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split(".").map(Number) as [number, number];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  return address === "::1" || /^f[cd]/.test(address) || /^fe[89ab]/.test(address);
}

/**
 * The site's origin (scheme, host, port) as a visitor sees it: for links members copy (share,
 * invites) and for the CSRF check. The host always comes from `Host`, which proxies pass on;
 * `X-Forwarded-Host` is never trusted (any client can send it, and a link built from it would point
 * members at someone else's site). The scheme is the request's own, or, behind `TRUST_PROXY`
 * TLS-terminating proxies (CONTRACT.md §6), the `X-Forwarded-Proto` they set.
 */
export function publicOrigin(request: Request, trustProxy = env.TRUST_PROXY): string {
  const url = new URL(request.url);
  const forwarded = forwardedBy(request.headers.get("X-Forwarded-Proto"), trustProxy)?.toLowerCase();
  const proto = forwarded === "https" || forwarded === "http" ? forwarded : url.protocol.replace(":", "");
  return originOf(proto, request.headers.get("Host") ?? url.host) ?? url.origin;
}

/** `proto://host` as a normalised origin, or null when `host` is not a host (a path, a user, spaces…). */
export function originOf(proto: string, host: string): string | null {
  if (!host || /[/\\?#@\s]/.test(host)) return null;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * Did the browser's JavaScript send this request (a Remix fetcher or a client navigation), rather
 * than a plain HTML form post or link? Remix strips its `?_data=` marker from `request.url` before a
 * loader or action runs, so the URL cannot tell. Browsers label every request instead: a form post
 * or link is `Sec-Fetch-Mode: navigate`, a fetch() is `cors` / `same-origin`. Without the header
 * (curl, very old browsers) the request is treated as a plain form post: it gets the redirect, which
 * a fetcher also handles (by navigating), so nothing breaks.
 */
export function isScriptRequest(request: Request): boolean {
  const mode = request.headers.get("Sec-Fetch-Mode");
  return mode !== null && mode !== "navigate";
}
