import { describe, expect, it } from "vitest";
import { serveSite } from "#tests/fixtures/site";
import { edgeHeaders, edgeRefusal } from "./http-edge.server";
import { PEER_ADDRESS_HEADER } from "~/web/params.server";

const req = (method: string, url: string, headers: Record<string, string> = {}) => ({
  method,
  url,
  headers: { host: "localhost:3000", ...headers },
});

describe("edgeRefusal", () => {
  it("lets ordinary requests through", () => {
    expect(edgeRefusal(req("GET", "/api/posts?search=%ZZ"))).toBeNull();
    expect(edgeRefusal(req("POST", "/api/posts", { origin: "http://localhost:3000" }))).toBeNull();
    expect(edgeRefusal(req("GET", "/post/%E0%A4%A"))).toBeNull();
  });

  it("answers 400 for broken percent-encoding in an /api path", () => {
    expect(edgeRefusal(req("GET", "/api/users/%E0%A4%A"))).toMatchObject({ status: 400 });
    expect(edgeRefusal(req("DELETE", "/api/posts/%FF", { origin: "http://localhost:3000" }))).toMatchObject({ status: 400 });
  });

  it("answers 400 for a NUL byte in a route or query value, which PostgreSQL answered 500 (security-3 P9)", () => {
    for (const url of [
      "/api/clubs?search=%00",
      "/clubs?search=%00",
      "/api/users/a%00b",
      "/profile/a%00b",
      "/feeds/members/a%00.atom",
      "/x?q=%00",
    ]) {
      expect(edgeRefusal(req("GET", url)), url).toMatchObject({ status: 400, error: "The address has a NUL character" });
    }
    // A percent sign followed by 00 is not a NUL: `%2500` is "%00" as text.
    expect(edgeRefusal(req("GET", "/clubs?search=%2500"))).toBeNull();
  });

  it("answers 400 for a Host that is not a host name, instead of throwing", () => {
    for (const host of ["a b", "a^b", "evil.example/x", "user@evil.example", ""]) {
      expect(edgeRefusal(req("GET", "/", { host }))).toMatchObject({ status: 400 });
    }
    expect(edgeRefusal({ method: "GET", url: "/", headers: {} })).toMatchObject({ status: 400 });
  });

  it("answers 400 for an absolute-form request target or `OPTIONS *` (security-2 N17)", () => {
    expect(edgeRefusal(req("GET", "http://localhost:3000/clubs"))).toMatchObject({ status: 400 });
    expect(edgeRefusal(req("GET", "https://evil.example/"))).toMatchObject({ status: 400 });
    expect(edgeRefusal(req("OPTIONS", "*"))).toMatchObject({ status: 400 });
    expect(edgeRefusal(req("GET", "clubs"))).toMatchObject({ status: 400 });
  });

  it("refuses a cross-site post (scheme, host and port compared)", () => {
    expect(edgeRefusal(req("POST", "/auth", { origin: "https://evil.example" }))).toMatchObject({ status: 403 });
    expect(edgeRefusal(req("POST", "/auth", { origin: "https://localhost:3000" }))).toMatchObject({ status: 403 });
    expect(edgeRefusal(req("POST", "/auth", { origin: "https://evil.example", "x-forwarded-host": "evil.example" }))).toMatchObject({
      status: 403,
    });
  });
});

describe("edgeHeaders", () => {
  it("marks the JSON surface nosniff and adds HSTS in production only", () => {
    expect(edgeHeaders("/api/posts", false)).toEqual({ "X-Content-Type-Options": "nosniff" });
    expect(edgeHeaders("/api", true)).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Strict-Transport-Security": "max-age=31536000",
    });
    expect(edgeHeaders("/settings", false)).toEqual({});
    expect(edgeHeaders("/apis", true)).toEqual({ "Strict-Transport-Security": "max-age=31536000" });
  });
});

describe("the edge in the site's server", () => {
  it("answers an absolute-form target and `OPTIONS *` with a 400 over a real connection, before the app builds its URL", async () => {
    const net = await import("node:net");
    const site = await serveSite(async (request) => new Response(new URL(request.url).pathname));
    const raw = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: "127.0.0.1", port: site.port });
        let answer = "";
        socket.setTimeout(5_000, () => socket.destroy(new Error("no answer in 5 s")));
        socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
        socket.on("end", () => resolve(answer));
        socket.on("error", reject);
        socket.write(`${head}\r\nHost: 127.0.0.1:${site.port}\r\nConnection: close\r\n\r\n`);
      });
    try {
      for (const head of [
        `GET http://127.0.0.1:${site.port}/clubs HTTP/1.1`,
        "OPTIONS * HTTP/1.1",
        `HEAD http://127.0.0.1:${site.port}/ HTTP/1.1`,
      ]) {
        const answer = await raw(head);
        expect(answer, head).toMatch(/^HTTP\/1\.1 400 /);
      }
      expect(await raw("GET /clubs.json HTTP/1.1")).toMatch(/^HTTP\/1\.1 200 [^]*\r\n\/clubs\.json\r\n/);
      // Two slashes stay a path: the app's URL keeps the site's host.
      expect(await raw("GET //evil.example/x.json HTTP/1.1")).toMatch(/^HTTP\/1\.1 200 [^]*\r\n\/\/evil\.example\/x\.json\r\n/);
    } finally {
      await site.close();
    }
  });

  it("hands the app the socket's address over a real connection, whatever header a client sends under its name", async () => {
    const http = await import("node:http");
    const site = await serveSite(async (request) => Response.json(request.headers.get(PEER_ADDRESS_HEADER)));
    // Every 127.x address is loopback on Linux: the client connects from one the server can tell apart.
    const seen = (headers: Record<string, string>) =>
      new Promise<unknown>((resolve, reject) => {
        const request = http.request(
          { host: "127.0.0.1", port: site.port, path: "/x.json", localAddress: "127.0.0.2", headers, timeout: 5000 },
          (res) => {
            let body = "";
            res.on("data", (chunk) => (body += chunk));
            res.on("end", () => resolve(JSON.parse(body)));
          },
        );
        request.on("error", reject).on("timeout", () => request.destroy(new Error("timed out")));
        request.end();
      });
    try {
      expect(await seen({})).toBe("127.0.0.2");
      expect(await seen({ [PEER_ADDRESS_HEADER]: "203.0.113.7", "X-Forwarded-For": "198.51.100.1" })).toBe("127.0.0.2");
    } finally {
      await site.close();
    }
  });

  it("lets a one-click unsubscribe POST from a mail provider through, without its Origin; other cross-site posts are 403", async () => {
    const site = await serveSite(async (request) => Response.json({ origin: request.headers.get("Origin"), body: await request.text() }));
    const post = (path: string) =>
      fetch(`${site.base}${path}`, {
        method: "POST",
        headers: { Origin: "https://mail.example.net", "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
    try {
      const through = await post("/unsubscribe/1-abc");
      expect(through.status).toBe(200);
      expect(await through.json()).toEqual({ origin: null, body: "List-Unsubscribe=One-Click" });
      expect((await post("/settings")).status).toBe(403);
      expect((await post("/unsubscribe/1-abc/x")).status).toBe(403);
    } finally {
      await site.close();
    }
  });
});
