import http from "node:http";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPost } from "~/models/posts/post.server";
import { env } from "~/utils/env.server";
import { VISITOR_PUBLIC_VALUE, MEMBER_VALUE, NO_STORE_VALUE } from "~/web/cache-control.server";
import { serveSite } from "../fixtures/site";
import { clearVisitorCache, negotiateEncoding, visitorCacheSize } from "~/server/visitor-cache.server";
import { createMember } from "../fixtures/members";

/**
 * Issue 13, a visitor's home at 0.10 of bare in the app alone (docs/decisions/0043): a visitor's page
 * is drawn once per validator and sent again, encoded once, to every visitor asking the same thing.
 * A stand-in for Remix behind the site's real server counts the renders and answers as the app does.
 */

let site: Awaited<ReturnType<typeof serveSite>>;
let port: number;
let rendered = 0;
let answer: () => Response = () => new Response(null, { status: 500 });

/** A page as the app answers it (unencoded): streamed in two chunks, with its Cache-Control and headers. */
const page = (body: string, headers: Record<string, string> = {}, status = 200) => {
  clearVisitorCache();
  answer = () => {
    const mid = Math.floor(body.length / 2);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body.slice(0, mid)));
        controller.enqueue(new TextEncoder().encode(body.slice(mid)));
        controller.close();
      },
    });
    return new Response(stream, {
      status,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": VISITOR_PUBLIC_VALUE, Vary: "Cookie, Save-Data", ...headers },
    });
  };
};

type Got = { status: number; headers: http.IncomingHttpHeaders; raw: Buffer; text: string };
/** A request with exact headers (fetch would add its own Accept-Encoding and decode for us). */
function get(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method, headers: { Host: "localhost:3000", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const enc = res.headers["content-encoding"];
        const text = (
          raw.length === 0 ? raw : enc === "br" ? zlib.brotliDecompressSync(raw) : enc === "gzip" ? zlib.gunzipSync(raw) : raw
        ).toString();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, text });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

const BIG = `<html><body>${"<article>Fresh scrapes along the north ridge this morning.</article>".repeat(60)}</body></html>`;

let member: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  member = await createMember();
  site = await serveSite(async () => {
    rendered += 1;
    return answer();
  });
  port = site.port;
});
afterAll(() => site.close());
afterEach(() => {
  vi.useRealTimers();
  clearVisitorCache();
});

describe("a visitor's page, drawn once per validator", () => {
  it("is sent again without drawing it, byte for byte, in the encoding each visitor takes", async () => {
    page(BIG);
    const before = rendered;
    const first = await get("/?type=video", { "Accept-Encoding": "gzip, deflate, br" });
    expect(first.status).toBe(200);
    expect(first.text).toBe(BIG);
    expect(first.headers["content-encoding"]).toBe("br");

    const second = await get("/?type=video", { "Accept-Encoding": "br" });
    const gzip = await get("/?type=video", { "Accept-Encoding": "gzip" });
    const plain = await get("/?type=video");
    expect(rendered).toBe(before + 1);
    expect(second.raw.equals(first.raw)).toBe(true);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    for (const got of [second, gzip, plain]) {
      expect(got.text).toBe(BIG);
      expect(Number(got.headers["content-length"])).toBe(got.raw.length);
      expect(got.headers.etag).toBe(first.headers.etag);
      expect(got.headers["cache-control"]).toBe(VISITOR_PUBLIC_VALUE);
      expect(got.headers.vary).toBe("Cookie, Save-Data, Accept-Encoding");
      expect(got.headers["content-type"]).toBe("text/html; charset=utf-8");
    }
    // Encoded whole, not chunk by chunk as the app streamed it: no bigger than a one-shot gzip -6.
    expect(first.raw.length).toBeLessThanOrEqual(zlib.gzipSync(BIG, { level: 6 }).length);
    expect(gzip.raw.length).toBe(zlib.gzipSync(BIG, { level: 6 }).length);
    // A HEAD from the cache: the head alone.
    const head = await get("/?type=video", { "Accept-Encoding": "br" }, "HEAD");
    expect(head.raw.length).toBe(0);
    expect(Number(head.headers["content-length"])).toBe(first.raw.length);
    expect(rendered).toBe(before + 1);
  });

  it("is drawn again after a write, and for another URL or Save-Data", async () => {
    page(BIG);
    const before = rendered;
    const tag = (await get("/clubs")).headers.etag;
    await get("/clubs?page=2");
    await get("/clubs", { "Save-Data": "on" });
    expect(rendered).toBe(before + 3);
    await get("/clubs");
    expect(rendered).toBe(before + 3);

    await createPost(member, { title: "A new post", content: "Something changed.", type: "article" }, { preview: async () => null });
    const after = await get("/clubs");
    expect(rendered).toBe(before + 4);
    expect(after.headers.etag).not.toBe(tag);
  });

  it("is drawn again when the minute turns (the validator moves with the clock)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.UTC(2026, 10, 23, 10, 0, 5));
    page(BIG);
    const before = rendered;
    await get("/search");
    vi.setSystemTime(Date.UTC(2026, 10, 23, 10, 0, 50));
    await get("/search");
    expect(rendered).toBe(before + 1);
    vi.setSystemTime(Date.UTC(2026, 10, 23, 10, 1, 1));
    await get("/search");
    expect(rendered).toBe(before + 2);
  });

  it("a hard reload (Cache-Control: no-cache) is drawn afresh", async () => {
    page(BIG);
    const before = rendered;
    await get("/");
    await get("/", { "Cache-Control": "no-cache" });
    await get("/", { Pragma: "no-cache" });
    expect(rendered).toBe(before + 3);
  });
});

describe("what is never kept", () => {
  it("a member's page: drawn for each request, encoded by the app's own layer", async () => {
    page(BIG);
    const before = rendered;
    await get("/", { Cookie: member.cookie });
    await get("/", { Cookie: member.cookie });
    expect(rendered).toBe(before + 2);
    expect(visitorCacheSize().entries).toBe(0);
  });

  it("an answer that sets a cookie, is not public, or is not a 200 (sent all the same)", async () => {
    for (const [headers, status] of [
      [{ "Set-Cookie": "__toast=; Path=/", "Cache-Control": MEMBER_VALUE }, 200],
      [{ "Cache-Control": NO_STORE_VALUE }, 200],
      [{}, 404],
    ] as const) {
      page(BIG, headers, status);
      const before = rendered;
      const a = await get("/join/abc", { "Accept-Encoding": "gzip" });
      const b = await get("/join/abc", { "Accept-Encoding": "gzip" });
      expect(rendered).toBe(before + 2);
      expect([a.status, b.status]).toEqual([status, status]);
      expect(b.text).toBe(BIG);
      expect(b.headers["content-encoding"]).toBe("gzip");
      expect(visitorCacheSize().entries).toBe(0);
    }
  });

  it("anything, with VISITOR_CACHE_MB=0", async () => {
    const mb = env.VISITOR_CACHE_MB;
    env.VISITOR_CACHE_MB = 0;
    try {
      page(BIG);
      const before = rendered;
      await get("/");
      await get("/");
      expect(rendered).toBe(before + 2);
    } finally {
      env.VISITOR_CACHE_MB = mb;
    }
  });

  it("more than the memory it is given: the oldest entries go first", async () => {
    const mb = env.VISITOR_CACHE_MB;
    env.VISITOR_CACHE_MB = 1;
    try {
      page("x".repeat(200 * 1024));
      for (let i = 0; i < 8; i++) await get(`/?page=${i}`);
      const { entries, bytes } = visitorCacheSize();
      expect(bytes).toBeLessThanOrEqual(1024 * 1024);
      expect(entries).toBeLessThan(8);
      const before = rendered;
      await get("/?page=7");
      expect(rendered).toBe(before);
      await get("/?page=0");
      expect(rendered).toBe(before + 1);
    } finally {
      env.VISITOR_CACHE_MB = mb;
    }
  });
});

describe("negotiateEncoding", () => {
  it("prefers brotli, then gzip, honours q=0 and *", () => {
    expect(negotiateEncoding("gzip, deflate, br")).toBe("br");
    expect(negotiateEncoding("gzip")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(negotiateEncoding("*")).toBe("br");
    expect(negotiateEncoding("identity")).toBe("identity");
    expect(negotiateEncoding(undefined)).toBe("identity");
    expect(negotiateEncoding("gzip;q=0")).toBe("identity");
  });
});
