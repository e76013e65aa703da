import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector } from "undici";

/**
 * The public-address guard for connections the server makes to addresses members give it: link
 * previews (link-metadata.server.ts) and web-push endpoints (models/notifications/push.server.ts). A fetch through
 * `createGuardedAgent()` resolves the name itself and refuses unless every address is public unicast
 * (ipaddr.js `range()`); an IP literal is checked before connecting and the socket's remote address
 * once more after, so DNS answers, rebinding and redirects are all covered.
 */

const GUARD_TIMEOUT_MS = 5_000;

export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`Refusing to connect to ${host} (${address}): not a public address`);
    this.name = "BlockedAddressError";
  }
}

/**
 * IPv6's global unicast block (RFC 4291, IANA): what is outside it is never a public host. ipaddr.js
 * calls everything it has no name for "unicast", IPv4-compatible `::/96` included (`::7f00:1` is
 * 127.0.0.1 in that deprecated form: security-3 P11), so an IPv6 address must be in here too.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

/**
 * Public unicast only: no loopback, private, link-local (cloud metadata), CGNAT, multicast, reserved,
 * NAT64, 6to4, Teredo, IPv4-compatible … ; an IPv6 address only in the global unicast block.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return false;
  // ipaddr.js reads the IPv4-compatible `::8.8.8.8` as if it were `::ffff:8.8.8.8`: with a dotted
  // tail, only the `::ffff:` spelling is an IPv4-mapped address.
  if (bare.includes(":") && bare.includes(".") && !/^::ffff:[\d.]+$/i.test(bare)) return false;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === "unicast";
  return v6.range() === "unicast" && v6.match(GLOBAL_UNICAST_V6);
}

type LookupAddress = { address: string; family: number };
export type LookupFunction = (
  hostname: string,
  options: { all: true; family?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export type GuardOptions = {
  /** The DNS lookup the connector uses (tests pass a stub; the guard around it stays the same). */
  lookup?: LookupFunction;
  /** Which addresses may be connected to. Default: public unicast only. Tests widen it; nothing else may. */
  isAllowedAddress?: (address: string) => boolean;
  connectTimeoutMs?: number;
  /** How long to wait for an answer's headers and between body chunks (default 5 s). */
  responseTimeoutMs?: number;
  /** Certificates to trust besides the system's (tests' self-signed servers); never set in production. */
  ca?: string | Buffer;
};

const systemLookup: LookupFunction = (hostname, options, callback) =>
  dns.lookup(hostname, options, callback as (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void);

/** An undici Agent that can only connect to allowed (by default: public unicast) addresses. */
export function createGuardedAgent(options: GuardOptions = {}): Agent {
  const allowed = options.isAllowedAddress ?? isPublicAddress;
  const baseLookup = options.lookup ?? systemLookup;

  // net/tls.connect call this for host names (never for IP literals): every answer must be allowed.
  const guardedLookup = (
    hostname: string,
    lookupOptions: { all?: boolean; family?: number },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    baseLookup(hostname, { family: lookupOptions.family, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const list = addresses ?? [];
      if (list.length === 0) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }), "");
      const refused = list.find((a) => !allowed(a.address));
      if (refused) return callback(new BlockedAddressError(hostname, refused.address), "");
      if (lookupOptions.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

  const connect = buildConnector({
    timeout: options.connectTimeoutMs ?? GUARD_TIMEOUT_MS,
    ...(options.ca ? { ca: options.ca } : {}),
    lookup: guardedLookup as unknown as net.LookupFunction,
  });

  return new Agent({
    connect: (connectOptions, callback) => {
      const host = connectOptions.hostname.replace(/^\[|\]$/g, "");
      if (net.isIP(host) && !allowed(host)) {
        callback(new BlockedAddressError(host, host), null);
        return;
      }
      connect(connectOptions, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error("Connection failed"), null);
        // The address actually connected to, whatever path led there.
        const remote = socket.remoteAddress;
        if (!remote || !allowed(remote)) {
          socket.destroy();
          return callback(new BlockedAddressError(host, remote ?? "unknown"), null);
        }
        callback(null, socket);
      });
    },
    connections: 16,
    keepAliveTimeout: 10_000,
    headersTimeout: options.responseTimeoutMs ?? GUARD_TIMEOUT_MS,
    bodyTimeout: options.responseTimeoutMs ?? GUARD_TIMEOUT_MS,
  });
}
