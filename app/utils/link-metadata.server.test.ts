import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  extractMetadata,
  fetchHtmlPage,
  fetchLinkMetadata,
  getLinkMetadata,
  isPublicAddress,
  type LookupFunction,
} from "./link-metadata.server";

/**
 * The SSRF guard is tested against a real HTTP server on 127.0.0.1. By default the guard refuses
 * loopback, so the server must see no request at all; tests that need to read a page widen the
 * guard to exactly that one loopback address (the injectable predicate exists for this only).
 */
let server: http.Server;
let base: string;
let port: number;
const hits: string[] = [];

const PAGE = `<!doctype html><html><head>
  <title>Fallback title</title>
  <meta property="og:title" content="Rattling in the pre-rut: what works">
  <meta property="og:description" content="Three seasons of rattling sequences, logged.">
  <meta property="og:image" content="/img/buck.jpg">
  <meta property="og:site_name" content="Deer Camp Journal">
  <link rel="icon" href="/favicon.png" sizes="32x32">
</head><body><p>Hello</p></body></html>`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://x");
    switch (url.pathname) {
      case "/page":
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(PAGE);
        return;
      case "/plain":
        res.writeHead(200, { "Content-Type": "text/html" }).end("<html><body>nothing here</body></html>");
        return;
      case "/image":
        res.writeHead(200, { "Content-Type": "image/png" }).end(Buffer.alloc(100));
        return;
      case "/to":
        res.writeHead(302, { Location: url.searchParams.get("where")! }).end();
        return;
      case "/chain": {
        const n = Number(url.searchParams.get("n"));
        res.writeHead(302, { Location: n > 0 ? `/chain?n=${n - 1}` : "/page" }).end();
        return;
      }
      case "/slow":
        // Never answers.
        return;
      case "/huge": {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.write(`<html><head><title>Huge page</title><meta name="description" content="Big on purpose"></head><body>`);
        const block = "x".repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          // 20 MB if nobody stops reading.
          while (sent < 20 * 1024 * 1024) {
            sent += block.length;
            if (!res.write(block)) return void res.once("drain", pump);
          }
          res.end("</body></html>");
        };
        res.on("error", () => undefined);
        pump();
        return;
      }
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  hits.length = 0;
});

/** Only for these tests: the one loopback address the test server listens on. */
const allowTestServer = (address: string) => address === "127.0.0.1" || isPublicAddress(address);

/** A DNS stub: every name resolves to the given address (a public-looking name pointing inside). */
const resolvesTo =
  (address: string, family = 4): LookupFunction =>
  (_hostname, _options, callback) =>
    callback(null, [{ address, family }]);

describe("isPublicAddress", () => {
  it("allows public unicast only", () => {
    for (const ok of ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"]) {
      expect(isPublicAddress(ok), ok).toBe(true);
    }
    for (const bad of [
      "127.0.0.1",
      "127.8.9.10",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "fd00:ec2::254",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "[::1]",
      "localhost",
      "not an address",
    ]) {
      expect(isPublicAddress(bad), bad).toBe(false);
    }
  });
});

describe("the SSRF guard refuses", () => {
  const refused = async (url: string, options: Parameters<typeof fetchHtmlPage>[1] = {}) => {
    await expect(fetchHtmlPage(url, { timeoutMs: 2000, ...options })).rejects.toSatisfy((error: unknown) => {
      let e = error as { name?: string; cause?: unknown } | undefined;
      while (e && e.name !== "BlockedAddressError" && e.cause) e = e.cause as typeof e;
      return e?.name === "BlockedAddressError";
    });
  };

  it("loopback, by IP and by name, without sending it a request", async () => {
    await refused(`${base}/page`);
    await refused(`http://localhost:${port}/page`);
    await refused(`http://0.0.0.0:${port}/page`);
    expect(hits).toEqual([]);
  });

  it("private and link-local addresses, the cloud metadata service among them", async () => {
    await refused("http://10.0.0.1/");
    await refused("http://192.168.1.1/admin");
    await refused("http://172.16.0.10/");
    await refused("http://169.254.169.254/latest/meta-data/");
  });

  it("IPv6 loopback and IPv4-mapped loopback", async () => {
    await refused(`http://[::1]:${port}/page`);
    await refused(`http://[::ffff:127.0.0.1]:${port}/page`);
    expect(hits).toEqual([]);
  });

  it("a public-looking name whose DNS answer is 127.0.0.1", async () => {
    await refused(`http://trail-cams.example:${port}/page`, { lookup: resolvesTo("127.0.0.1") });
    await refused(`http://metadata.example/`, { lookup: resolvesTo("169.254.169.254") });
    await refused(`http://v6.example:${port}/page`, { lookup: resolvesTo("::1", 6) });
    expect(hits).toEqual([]);
  });

  it("a redirect to a private address, even from an allowed server", async () => {
    await refused(`${base}/to?where=${encodeURIComponent("http://192.168.0.1/router")}`, { isAllowedAddress: allowTestServer });
    await refused(`${base}/to?where=${encodeURIComponent(`http://[::1]:${port}/page`)}`, { isAllowedAddress: allowTestServer });
    await refused(`${base}/to?where=${encodeURIComponent(`http://inside.example:${port}/page`)}`, {
      isAllowedAddress: allowTestServer,
      lookup: resolvesTo("10.1.2.3"),
    });
    // The first hop was served; the private hops were never reached.
    expect(hits.every((h) => h.startsWith("/to"))).toBe(true);
  });

  it("non-http schemes, directly or by redirect", async () => {
    await expect(fetchHtmlPage("file:///etc/passwd")).rejects.toThrow(/Only http and https/);
    await expect(
      fetchHtmlPage(`${base}/to?where=${encodeURIComponent("file:///etc/passwd")}`, { isAllowedAddress: allowTestServer }),
    ).rejects.toThrow(/Only http and https/);
  });
});

describe("fetching through the guard (test server allowed)", () => {
  const opts = { isAllowedAddress: allowTestServer, timeoutMs: 3000 };

  it("extracts title, description, image, site name and domain", async () => {
    const metadata = await fetchLinkMetadata(`${base}/page`, opts);
    expect(metadata).toEqual({
      title: "Rattling in the pre-rut: what works",
      description: "Three seasons of rattling sequences, logged.",
      image: `${base}/img/buck.jpg`,
      siteName: "Deer Camp Journal",
      domain: "127.0.0.1",
      logo: `${base}/favicon.png`,
    });
    // Only the page itself was fetched: no favicon probing outside the guard.
    expect(hits).toEqual(["/page"]);
  });

  it("follows up to 3 redirects, no more", async () => {
    await expect(fetchHtmlPage(`${base}/chain?n=2`, opts)).resolves.toMatchObject({ url: `${base}/page` });
    await expect(fetchHtmlPage(`${base}/chain?n=3`, opts)).rejects.toThrow(/Too many redirects/);
  });

  it("gives up after the timeout", async () => {
    const started = Date.now();
    const metadata = await fetchLinkMetadata(`${base}/slow`, { ...opts, timeoutMs: 300 });
    expect(metadata).toEqual({ error: "The page took too long to answer" });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("reads at most 1 MB of a page and still finds its metadata", async () => {
    const page = await fetchHtmlPage(`${base}/huge`, opts);
    expect(page.html.length).toBeLessThanOrEqual(1024 * 1024);
    expect(page.html.length).toBeGreaterThan(1000 * 1024);
    expect(await extractMetadata(page.html, page.url)).toMatchObject({ title: "Huge page", description: "Big on purpose" });
  });

  it("parses only HTML, and answers { error } for pages with nothing to show", async () => {
    expect(await fetchLinkMetadata(`${base}/image`, opts)).toEqual({ error: "Not an HTML page (image/png)" });
    expect(await fetchLinkMetadata(`${base}/missing`, opts)).toEqual({ error: "The page answered 404" });
    expect(await fetchLinkMetadata(`${base}/plain`, opts)).toMatchObject({ error: "No preview available for this page" });
  });

  it("caches previews per URL", async () => {
    const first = await getLinkMetadata(`${base}/page#top`, opts);
    const second = await getLinkMetadata(`${base}/page`, opts);
    expect(second).toEqual(first);
    expect(hits).toEqual(["/page"]);
  });

  it("never throws: a refused address becomes { error }", async () => {
    expect(await fetchLinkMetadata(`${base}/page`)).toEqual({ error: "This address cannot be previewed" });
  });
});

describe("extractMetadata", () => {
  it("keeps only http(s) images and trims long text", async () => {
    const html = `<html><head><meta property="og:title" content="${"T".repeat(500)}">
      <meta property="og:image" content="javascript:alert(1)"></head></html>`;
    const metadata = await extractMetadata(html, "https://www.example.com/a");
    expect(metadata.title!.length).toBe(300);
    expect(metadata.image ?? null).toBeNull();
    expect(metadata.domain).toBe("example.com");
  });

  it("keeps no half of an emoji that the length limit cut (stored text stays valid UTF-8, ADR 0015)", async () => {
    const html = `<html><head><meta property="og:title" content="${"T".repeat(298)}🦌🦌"></head></html>`;
    const metadata = await extractMetadata(html, "https://www.example.com/a");
    expect(metadata.title).toBe(`${"T".repeat(298)}…`);
  });
});
