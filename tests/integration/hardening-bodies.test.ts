import { beforeAll, describe, expect, it } from "vitest";
import * as loginApi from "~/routes/api.auth.login";
import * as authPage from "~/routes/auth/route";
import * as clubPage from "~/routes/clubs.$id/route";
import * as createClubPage from "~/routes/clubs.create/route";
import * as createPage from "~/routes/create";
import * as clubCreatePage from "~/routes/clubs.$id/create-post";
import * as uploadApi from "~/routes/api.upload";
import * as postPage from "~/routes/post.$id/route";
import * as profilePage from "~/routes/profile.$username/route";
import * as settingsPage from "~/routes/settings/route";
import { newClub } from "../fixtures/clubs";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * CONTRACT.md §6 (issue 11, security.md H1 and L1a): bodies are capped while they stream, for
 * visitors too and without a Content-Length, and a form page given a body it cannot read answers
 * 400, never 500.
 */

const ORIGIN = "http://localhost:3000";
const CHUNK = 64 * 1024;
const KB = 1024;

/**
 * A chunked body (no Content-Length) made as it is pulled: `head`, then `fill` bytes up to `total`.
 * `pulled()` says how much of it the server asked for.
 */
function streamedBody(head: string, total: number, fill = "a") {
  const headBytes = new TextEncoder().encode(head);
  const filler = new TextEncoder().encode(fill.repeat(CHUNK));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const chunk = sent === 0 ? headBytes : filler.subarray(0, Math.min(CHUNK, total - sent));
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => sent };
}

function postStream(path: string, contentType: string, body: ReadableStream<Uint8Array>, cookie?: string) {
  const headers = new Headers({ "Content-Type": contentType, Origin: ORIGIN });
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`${ORIGIN}${path}`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
}

function postRaw(path: string, contentType: string, body: string, cookie?: string) {
  const headers = new Headers({ "Content-Type": contentType, Origin: ORIGIN });
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`${ORIGIN}${path}`, { method: "POST", headers, body });
}

describe("bodies are capped while they stream", () => {
  it("a 300 KB chunked JSON body to /api/auth/login is 413, and little past 256 KB of it is read", async () => {
    const body = streamedBody('{"username":"someone","password":"', 32 * 1024 * 1024);
    const res = await call(loginApi.action, postStream("/api/auth/login", "application/json", body.stream));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
    expect(body.pulled()).toBeGreaterThan(256 * KB);
    expect(body.pulled()).toBeLessThanOrEqual(256 * KB + 2 * CHUNK);
  });

  it("a JSON body just under 256 KB is still read (and answered on its merits)", async () => {
    const padding = "a".repeat(250 * KB);
    const res = await call(loginApi.action, makeRequest("/api/auth/login", { json: { username: "nobody_here", password: padding } }));
    expect(res.status).not.toBe(413);
  });

  it("a 2 MB urlencoded body to /auth is 413 for a visitor, and little past 1 MB of it is read", async () => {
    const body = streamedBody("intent=login&username=someone&password=", 2 * 1024 * KB);
    const res = await call(authPage.action, postStream("/auth", "application/x-www-form-urlencoded", body.stream));
    expect(res.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(1024 * KB + 2 * CHUNK);
  });

  it("a 2 MB urlencoded body to a post page is 413 before anything else, signed in or not", async () => {
    const member = await createMember();
    for (const cookie of [undefined, member.cookie]) {
      const body = streamedBody("intent=comment&content=", 2 * 1024 * KB);
      const res = await call(postPage.action, postStream("/post/1", "application/x-www-form-urlencoded", body.stream, cookie), { id: "1" });
      expect(res.status).toBe(413);
      expect(body.pulled()).toBeLessThanOrEqual(1024 * KB + 2 * CHUNK);
    }
  });

  it("the text fields of a multipart post form share the 1 MB cap: many fields under 256 KB each are 413", async () => {
    const member = await createMember();
    const boundary = "----capboundary";
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const parts = Array.from({ length: 6 }, (_, i) => field(`note${i}`, "b".repeat(200 * KB))).join("");
    const body = `${field("content", "hello")}${parts}--${boundary}--\r\n`;
    const res = await call(createPage.action, postRaw("/create", `multipart/form-data; boundary=${boundary}`, body, member.cookie));
    expect(res.status).toBe(413);
  });
});

describe("every byte of a multipart body counts, its parts' headers too (security-2 N1)", () => {
  /** The audit's probe: a part whose header block never ends, `total` bytes of it, chunked. */
  const endlessHeader = (total: number) => streamedBody('--xyz\r\nContent-Disposition: form-data; name="title"\r\nX-Pad: ', total);
  const MULTIPART = "multipart/form-data; boundary=xyz";
  const MB = 1024 * KB;

  it("a part header that never ends is refused once it passes 16 KB, on every form that takes files", async () => {
    const member = await createMember();
    const club = await newClub(member);
    const targets = [
      ["/create", createPage.action, {}, 413],
      [`/clubs/${club.id}/create`, clubCreatePage.action, { id: String(club.id) }, 413],
      ["/api/upload", uploadApi.action, {}, 413],
      // The avatar forms answer their refusals with a toast.
      ["/settings", settingsPage.action, {}, 302],
      [`/profile/${member.username}`, profilePage.action, { username: member.username }, 302],
    ] as const;
    for (const [path, action, params, status] of targets) {
      const body = endlessHeader(64 * MB);
      const res = await call(action, postStream(path, MULTIPART, body.stream, member.cookie), params);
      expect(res.status, path).toBe(status);
      expect(body.pulled(), path).toBeLessThanOrEqual(16 * KB + 2 * CHUNK);
    }
  });

  it("the memory probe, bounded: three 200 MB endless headers at once leave this process's memory where it was", async () => {
    const member = await createMember();
    globalThis.gc?.();
    const start = process.memoryUsage().rss;
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const answers = await Promise.all(
        [createPage.action, uploadApi.action, createPage.action].map((action) =>
          call(action, postStream("/create", MULTIPART, endlessHeader(200 * MB).stream, member.cookie)),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual([413, 413, 413]);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - start).toBeLessThan(50 * MB);
  });

  it("a body past what its files may take is refused while it streams: /api/upload stops at 201 MB", async () => {
    const member = await createMember();
    // File parts of a field the form does not take, 100 MB each: each is read and dropped (under
    // the 200 MB a refused file may be read on for), one after another.
    const part = '--xyz\r\nContent-Disposition: form-data; name="other"; filename="a.bin"\r\n\r\n';
    const filler = new TextEncoder().encode("a".repeat(CHUNK));
    let sent = 0;
    let inPart = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 400 * MB) return controller.close();
        const chunk = inPart === 0 ? new TextEncoder().encode(`${sent ? "\r\n" : ""}${part}`) : filler;
        inPart = inPart + chunk.byteLength >= 100 * MB ? 0 : inPart + chunk.byteLength;
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await call(uploadApi.action, postStream("/api/upload", MULTIPART, stream, member.cookie));
    expect(res.status).toBe(413);
    expect(sent).toBeLessThanOrEqual(201 * MB + 2 * CHUNK);
  });
});

describe("a form page given a body it cannot read answers 400, never 500", () => {
  let cookie: string;
  let username: string;
  beforeAll(async () => {
    const member = await createMember();
    cookie = member.cookie;
    username = member.username;
  });

  /** On a profile and in Settings multipart is the avatar form, whose failures come back as a toast. */
  function expectUnreadable(path: string, res: Response) {
    const avatarForm = path.startsWith("/profile") || path === "/settings";
    if (avatarForm) expect(res.status, path).toBe(302);
    else expect(res.status, path).toBe(400);
  }

  const pages = () =>
    [
      ["/auth", authPage.action, {}],
      ["/post/1", postPage.action, { id: "1" }],
      ["/clubs/1", clubPage.action, { id: "1" }],
      [`/profile/${username}`, profilePage.action, { username }],
      ["/settings", settingsPage.action, {}],
      ["/clubs/create", createClubPage.action, {}],
    ] as const;

  it("JSON sent to a form page", async () => {
    for (const [path, action, params] of pages()) {
      const res = await call(action, postRaw(path, "application/json", '{"intent":"login"}', cookie), params);
      expect(res.status, path).toBe(400);
    }
  });

  it("multipart without a boundary", async () => {
    for (const [path, action, params] of pages()) {
      const res = await call(
        action,
        postRaw(path, "multipart/form-data", '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nlogin', cookie),
        params,
      );
      expectUnreadable(path, res);
    }
  });

  it("a truncated multipart body", async () => {
    const truncated = '--cut\r\nContent-Disposition: form-data; name="intent"\r\n\r\nlog';
    for (const [path, action, params] of pages()) {
      const res = await call(action, postRaw(path, "multipart/form-data; boundary=cut", truncated, cookie), params);
      expectUnreadable(path, res);
    }
  });
});
