import { timingSafeEqual } from "node:crypto";
import { env } from "~/utils/env.server";
import { PEER_ADDRESS_HEADER } from "./params.server";

const FORWARDING_HEADERS = ["x-forwarded-for", "x-real-ip", "forwarded"];

/**
 * Who may read /metrics (CONTRACT.md §11): a client on this machine that came straight to the app,
 * with no proxy's forwarding headers (a reverse proxy on the same host makes every visitor look
 * local, so a forwarded request is never trusted as loopback), or anyone presenting
 * `Authorization: Bearer $METRICS_TOKEN` when that is set. Everyone else is answered 404, as if
 * there were no such page.
 */
export function mayReadMetrics(request: Request, token = env.METRICS_TOKEN): boolean {
  const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1];
  if (token && presented) return sameSecret(presented, token);
  if (presented) return false;
  if (FORWARDING_HEADERS.some((name) => request.headers.has(name))) return false;
  const peer = (request.headers.get(PEER_ADDRESS_HEADER) ?? "").trim().toLowerCase();
  return peer === "::1" || /^(?:::ffff:)?127\.\d+\.\d+\.\d+$/.test(peer);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
