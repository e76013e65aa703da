import { describe, expect, it, vi } from "vitest";
import { clientAddress, idParam, isScriptRequest, PEER_ADDRESS_HEADER, publicOrigin } from "./params.server";

const request = (headers: Record<string, string>, url = "http://127.0.0.1:3000/post/1") => new Request(url, { headers });

describe("publicOrigin", () => {
  it("takes the host from Host and never from X-Forwarded-Host, which any client can send", () => {
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Host": "evil.example" }))).toBe("http://pulse.example");
  });

  it("takes the scheme from the first X-Forwarded-Proto a TLS-terminating proxy sets", () => {
    // Setup: two trusted proxies (TRUST_PROXY=2), the outer one terminating TLS.
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "https, http" }), 2)).toBe("https://pulse.example");
  });

  it("ignores X-Forwarded-Proto unless TRUST_PROXY says a proxy set it, and then reads the proxy's entry", () => {
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "https" }))).toBe("http://pulse.example");
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "https" }), 1)).toBe("https://pulse.example");
    // A client's own value sits left of the one the proxy appends.
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "https, http" }), 1)).toBe("http://pulse.example");
  });

  it("keeps the port and normalises the host; a Host that is not a host falls back to the URL's", () => {
    expect(publicOrigin(request({ Host: "Pulse.Example:8443" }))).toBe("http://pulse.example:8443");
    expect(publicOrigin(request({ Host: "evil.example/x" }))).toBe("http://127.0.0.1:3000");
    expect(publicOrigin(request({ Host: "user@evil.example" }))).toBe("http://127.0.0.1:3000");
  });

  it("ignores a scheme that is not http or https", () => {
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "javascript" }), 1)).toBe("http://pulse.example");
  });
});

describe("idParam", () => {
  it("reads a positive integer id", () => {
    expect(idParam("42")).toBe(42);
  });

  it.each(["abc", "0", "1e3", "-1", "01", "12345678901234567", undefined])("answers 404 for %s", (value) => {
    expect(() => idParam(value, "Post Not Found")).toThrow(expect.objectContaining({ status: 404, message: "Post Not Found" }));
  });
});

describe("isScriptRequest", () => {
  it("tells a fetch from a form post or link by Sec-Fetch-Mode", () => {
    expect(isScriptRequest(request({ "Sec-Fetch-Mode": "cors" }))).toBe(true);
    expect(isScriptRequest(request({ "Sec-Fetch-Mode": "navigate" }))).toBe(false);
    expect(isScriptRequest(request({}))).toBe(false);
  });
});

describe("clientAddress (CONTRACT.md §6, ADR 0019)", () => {
  const from = (peer: string | null, headers: Record<string, string> = {}) =>
    request(peer ? { [PEER_ADDRESS_HEADER]: peer, ...headers } : headers, "http://127.0.0.1:3000/api/auth/login");

  it("is the socket's address the edge stamped; with TRUST_PROXY=0 forwarding headers are ignored", () => {
    expect(clientAddress(from("203.0.113.5"), 0)).toEqual({ ip: "203.0.113.5", trusted: true });
    expect(clientAddress(from("203.0.113.5", { "X-Forwarded-For": "198.51.100.1", "X-Real-IP": "198.51.100.2" }), 0)).toEqual({
      ip: "203.0.113.5",
      trusted: true,
    });
    expect(clientAddress(from("::ffff:203.0.113.5"), 0)).toEqual({ ip: "203.0.113.5", trusted: true });
    // A developer's own browser, or a second process on the same host, with no forwarding headers.
    expect(clientAddress(from("127.0.0.1"), 0)).toEqual({ ip: "127.0.0.1", trusted: true });
  });

  it("behind N proxies takes the Nth X-Forwarded-For entry from the right, never one the client wrote", () => {
    expect(clientAddress(from("10.0.0.2", { "X-Forwarded-For": "1.1.1.1, 198.51.100.7" }), 1)).toEqual({
      ip: "198.51.100.7",
      trusted: true,
    });
    expect(clientAddress(from("10.0.0.2", { "X-Forwarded-For": "1.1.1.1, 198.51.100.7, 10.0.0.9" }), 2)).toEqual({
      ip: "198.51.100.7",
      trusted: true,
    });
    // A proxy that sent no usable entry: everyone behind it is counted as the proxy (security-2 N5).
    expect(clientAddress(from("10.0.0.2", { "X-Real-IP": "198.51.100.8" }), 1)).toEqual({ ip: "10.0.0.2", trusted: true });
    expect(clientAddress(from("10.0.0.2", { "X-Forwarded-For": "1.1.1.1, not-an-address" }), 1)).toEqual({
      ip: "10.0.0.2",
      trusted: true,
    });
  });

  it("with TRUST_PROXY>0 believes X-Forwarded-For only from a peer on a loopback or private network (security-2 N5)", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    // A client that reaches the app directly, past the proxy, cannot name its own address.
    for (const xff of ["198.51.100.1", "198.51.100.2", "1.1.1.1, 198.51.100.3"]) {
      expect(clientAddress(from("203.0.113.5", { "X-Forwarded-For": xff }), 1)).toEqual({ ip: "203.0.113.5", trusted: true });
    }
    expect(clientAddress(from("2001:db8:1:2::5", { "X-Forwarded-For": "198.51.100.1" }), 1)).toEqual({
      ip: "2001:db8:1:2::/64",
      trusted: true,
    });
    // …and one with no header at all is counted by its socket too.
    expect(clientAddress(from("203.0.113.5"), 1)).toEqual({ ip: "203.0.113.5", trusted: true });
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
    // Proxies on loopback, RFC 1918, unique-local and IPv4-mapped addresses are believed.
    for (const proxy of ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "fd00::1", "::ffff:10.0.0.2", "::1"]) {
      expect(clientAddress(from(proxy, { "X-Forwarded-For": "198.51.100.7" }), 1), proxy).toEqual({ ip: "198.51.100.7", trusted: true });
    }
  });

  it("counts a local peer that forwards for others while TRUST_PROXY=0 (a forgotten setting) as itself, and says so once", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(clientAddress(from("127.0.0.1", { "X-Forwarded-For": "198.51.100.1" }), 0)).toEqual({ ip: "127.0.0.1", trusted: true });
    expect(clientAddress(from("172.17.0.1", { "X-Real-IP": "198.51.100.1" }), 0)).toEqual({ ip: "172.17.0.1", trusted: true });
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
    // A client on the internet cannot make itself untrusted by adding the header.
    expect(clientAddress(from("203.0.113.5", { "X-Forwarded-For": "127.0.0.1" }), 0)).toEqual({ ip: "203.0.113.5", trusted: true });
  });

  it("counts an IPv6 client by its /64, which one subscriber holds whole", () => {
    const a = clientAddress(from("2001:db8:1:2:3:4:5:6"), 0).ip;
    expect(a).toBe("2001:db8:1:2::/64");
    expect(clientAddress(from("2001:0DB8:1:2::9"), 0).ip).toBe(a);
    expect(clientAddress(from("2001:db8:1:3::9"), 0).ip).not.toBe(a);
    expect(clientAddress(from("::1"), 0)).toEqual({ ip: "0:0:0:0::/64", trusted: true });
    expect(clientAddress(from("10.0.0.2", { "X-Forwarded-For": "2001:db8::1" }), 1).ip).toBe("2001:db8:0:0::/64");
  });

  it("without an address from the edge, or with one that is not an address, knows nobody", () => {
    expect(clientAddress(from(null, { "X-Forwarded-For": "198.51.100.1" }), 0)).toEqual({ ip: "unknown", trusted: false });
    expect(clientAddress(from("direct"), 0)).toEqual({ ip: "unknown", trusted: false });
  });
});
