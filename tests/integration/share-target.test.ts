import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";
import { incomingShares, media } from "#db/schema";
import { pruneExpiredShares, NOTHING_SHARED, SHARE_GONE, SHARE_KEPT_MS } from "~/models/media/incoming-share.server";
import { action as shareAction } from "~/routes/share";
import { action as claimAction, loader as claimLoader } from "~/routes/share_.$id";
import { loader as createLoader } from "~/routes/create";
import { loader as mediaLoader } from "~/routes/media.$";
import { edgeRefusal } from "~/server/http-edge.server";
import { db, first } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { LIMITS } from "~/utils/rate-limit.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import { lazyBytes, mp3Head, multipartRequest, pdfHead, png } from "../fixtures/media";

/**
 * The share target without the service worker (CONTRACT.md §14 "Sharing from the phone", issue 43
 * item 1, docs/decisions/0092-share-target.md): `POST /share` as the phone's browser sends it.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let alice: Member;

beforeAll(async () => {
  alice = await createMember();
});
afterEach(() => limitsOff());

type Parts = Parameters<typeof multipartRequest>[1];

function share(parts: Parts, cookie: string | null, headers: Record<string, string> = {}) {
  return call(shareAction, multipartRequest("/share", parts, { cookie, headers }).request);
}

const heldFiles = () => {
  const dir = path.resolve(env.UPLOAD_DIR, "held");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};
const mediaOf = (ownerId: number) => db.select().from(media).where(eq(media.ownerId, ownerId));
const shareRows = () => db.select().from(incomingShares);

async function createPage(cookie: string, location: string) {
  const response = await call(createLoader, makeRequest(location, { cookie }));
  expect(response.status).toBe(200);
  return (await response.json()) as {
    shared: { title: string; content: string; mediaUrl: string; uploads: { url: string; type: string; name: string }[] } | null;
    shareGone: string | null;
  };
}

describe("POST /share, signed in", () => {
  it("makes the files the member's uploads and opens the create page with everything filled in (303)", async () => {
    const before = (await mediaOf(alice.id)).length;
    const response = await share(
      [
        { name: "title", value: "Big eight on the ridge" },
        { name: "text", value: "Trail cam caught him at dawn, heading to the creek." },
        { name: "url", value: "https://example.com/trailcam" },
        { name: "files", filename: "cam.png", contentType: "image/png", data: await png(640, 480) },
        { name: "files", filename: "grunt.mp3", contentType: "audio/mpeg", data: mp3Head() },
      ],
      alice.cookie,
    );
    expect(response.status).toBe(303);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(/^\/create\?share=[\w-]+$/);

    const mine = await mediaOf(alice.id);
    expect(mine.length).toBe(before + 2);
    expect(mine.filter((m) => m.postId === null).map((m) => m.kind)).toEqual(expect.arrayContaining(["image", "audio"]));

    const { shared, shareGone } = await createPage(alice.cookie, location);
    expect(shareGone).toBeNull();
    expect(shared).toMatchObject({
      title: "Big eight on the ridge",
      content: "Trail cam caught him at dawn, heading to the creek.",
      mediaUrl: "https://example.com/trailcam",
    });
    expect(shared!.uploads.map((u) => [u.name, u.type])).toEqual([
      ["cam.png", "image"],
      ["grunt.mp3", "audio"],
    ]);
  });

  it("another member cannot open someone's share", async () => {
    const response = await share([{ name: "text", value: "Only mine to post" }], alice.cookie);
    const bob = await createMember();
    const { shared, shareGone } = await createPage(bob.cookie, response.headers.get("Location")!);
    expect(shared).toBeNull();
    expect(shareGone).toBe(SHARE_GONE);
  });

  it("refuses a file that is not an image, a video or audio (415), and keeps nothing of the share", async () => {
    const rows = (await shareRows()).length;
    const before = (await mediaOf(alice.id)).length;
    const response = await share(
      [
        { name: "text", value: "Two files" },
        { name: "files", filename: "cam.png", contentType: "image/png", data: await png() },
        { name: "files", filename: "season.pdf", contentType: "image/png", data: pdfHead() },
      ],
      alice.cookie,
    );
    expect(response.status).toBe(415);
    expect((await response.json()).error).toMatch(/^season\.pdf was not taken: Unsupported file type/);
    expect((await mediaOf(alice.id)).length).toBe(before);
    expect((await shareRows()).length).toBe(rows);
  });

  it("refuses a share with neither files nor text (400)", async () => {
    const rows = (await shareRows()).length;
    const response = await share([{ name: "title", value: "  " }], alice.cookie);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe(NOTHING_SHARED);
    expect((await shareRows()).length).toBe(rows);
  });

  it("counts the files against the member's hourly upload limit like any upload (429, nothing kept)", async () => {
    limitsOn();
    const bob = await createMember();
    const { limit } = LIMITS.uploadsPerUser;
    const { consumeLimit } = await import("~/utils/rate-limit.server");
    for (let i = 0; i < limit; i++) await consumeLimit("uploadsPerUser", String(bob.id));
    const response = await share(
      [
        { name: "text", value: "One too many" },
        { name: "files", filename: "cam.png", contentType: "image/png", data: await png() },
      ],
      bob.cookie,
    );
    expect(response.status).toBe(429);
    expect((await mediaOf(bob.id)).length).toBe(0);
  });
});

describe("POST /share, signed out", () => {
  it("holds the files unserved, sends the visitor to sign in, and gives everything back after it", async () => {
    const heldBefore = heldFiles().length;
    const response = await share(
      [
        { name: "text", value: "Doe and twins by the feeder this morning." },
        { name: "files", filename: "feeder.png", contentType: "image/png", data: await png(800, 600) },
      ],
      null,
    );
    expect(response.status).toBe(303);
    const signIn = new URL(response.headers.get("Location")!, "http://localhost:3000");
    expect(signIn.pathname).toBe("/auth");
    const back = signIn.searchParams.get("redirectTo")!;
    expect(back).toMatch(/^\/share\/[\w-]+$/);
    const id = back.split("/").pop()!;

    // Held as sent, under held/, which /media never serves; no upload exists yet.
    const held = heldFiles();
    expect(held.length).toBe(heldBefore + 1);
    const row = first(await db.select().from(incomingShares).where(eq(incomingShares.id, id)))!;
    expect(row.ownerId).toBeNull();
    const key = (row.files[0] as { key: string }).key;
    const served = await call(mediaLoader, new Request(`http://localhost:3000/media/${key}`), { "*": key });
    expect(served.status).toBe(404);

    // Signed in: the page offers it, and one tap makes the files the member's uploads.
    const carol = await createMember();
    const page = await call(claimLoader, makeRequest(back, { cookie: carol.cookie }), { id });
    expect(await page.json()).toMatchObject({ kept: true });
    const claimed = await call(claimAction, makeRequest(back, { method: "POST", cookie: carol.cookie }), { id });
    expect(claimed.status).toBe(303);
    expect(claimed.headers.get("Location")).toBe(`/create?share=${id}`);
    expect(heldFiles().length).toBe(heldBefore);
    const uploads = await mediaOf(carol.id);
    expect(uploads.map((u) => [u.kind, u.name, u.width])).toEqual([["image", "feeder.png", 800]]);

    const { shared } = await createPage(carol.cookie, `/create?share=${id}`);
    expect(shared).toMatchObject({ content: "Doe and twins by the feeder this morning." });
    expect(shared!.uploads.map((u) => u.url)).toEqual([uploads[0]!.url]);

    // Taken once: a repeat by the same member changes nothing, another member cannot take it.
    const again = await call(claimAction, makeRequest(back, { method: "POST", cookie: carol.cookie }), { id });
    expect(again.status).toBe(303);
    expect((await mediaOf(carol.id)).length).toBe(1);
    const dave = await createMember();
    const stolen = await call(claimAction, makeRequest(back, { method: "POST", cookie: dave.cookie }), { id });
    expect(stolen.status).toBe(404);
    expect((await mediaOf(dave.id)).length).toBe(0);
  });

  it("claims made at once (the same member on two tabs, another member) make the held files uploads once, for one member", async () => {
    const response = await share(
      [
        { name: "text", value: "Two scrapes on the logging road." },
        { name: "files", filename: "scrape-1.png", contentType: "image/png", data: await png(640, 480) },
        { name: "files", filename: "scrape-2.png", contentType: "image/png", data: await png(480, 640) },
      ],
      null,
    );
    const back = new URL(response.headers.get("Location")!, "http://localhost:3000").searchParams.get("redirectTo")!;
    const id = back.split("/").pop()!;
    const erin = await createMember();
    const frank = await createMember();
    const claim = (who: Member) => call(claimAction, makeRequest(back, { method: "POST", cookie: who.cookie }), { id });
    const answers = await Promise.all([claim(erin), claim(frank), claim(erin), claim(frank)]);
    const row = first(await db.select().from(incomingShares).where(eq(incomingShares.id, id)))!;
    const owner = row.ownerId === erin.id ? erin : frank;
    const other = owner === erin ? frank : erin;
    // The owner's claims are 303 to the create page; the other member's are 404, and they got nothing.
    const byWho = [erin, frank, erin, frank].map((who, i) => [who === owner ? "owner" : "other", answers[i]!.status]);
    expect(byWho.filter(([who]) => who === "owner").map(([, status]) => status)).toEqual([303, 303]);
    expect(byWho.filter(([who]) => who === "other").map(([, status]) => status)).toEqual([404, 404]);
    expect((await mediaOf(other.id)).length).toBe(0);
    const uploads = await mediaOf(owner.id);
    expect(uploads.map((u) => u.name).sort()).toEqual(["scrape-1.png", "scrape-2.png"]);
    expect(row.files.map((f) => ("url" in f ? f.url : null)).sort()).toEqual(uploads.map((u) => u.url).sort());
  });

  it("refuses a wrong file type before holding anything (415)", async () => {
    const heldBefore = heldFiles().length;
    const rows = (await shareRows()).length;
    const response = await share([{ name: "files", filename: "doc.pdf", contentType: "application/pdf", data: pdfHead() }], null);
    expect(response.status).toBe(415);
    expect(heldFiles().length).toBe(heldBefore);
    expect((await shareRows()).length).toBe(rows);
  });

  it("refuses a file over 50 MB while it streams (413), holding nothing", async () => {
    const heldBefore = heldFiles().length;
    const rows = (await shareRows()).length;
    const big = lazyBytes(await png(), 51 * 1024 * 1024);
    const response = await share(
      [
        { name: "text", value: "The whole clip" },
        { name: "files", filename: "clip.png", contentType: "image/png", data: big },
      ],
      null,
    );
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatch(/^clip\.png was not taken: File is too large/);
    expect(heldFiles().length).toBe(heldBefore);
    expect((await shareRows()).length).toBe(rows);
  });

  it("keeps a visitor's share at most an hour: the prune removes it and its files", async () => {
    const response = await share([{ name: "files", filename: "late.png", contentType: "image/png", data: await png() }], null);
    const id = new URL(response.headers.get("Location")!, "http://localhost:3000").searchParams.get("redirectTo")!.split("/").pop()!;
    const heldNow = heldFiles().length;
    expect(await pruneExpiredShares(undefined, Date.now() + SHARE_KEPT_MS - 60_000)).toBe(0);
    expect(await pruneExpiredShares(undefined, Date.now() + SHARE_KEPT_MS + 1_000)).toBeGreaterThanOrEqual(1);
    expect(heldFiles().length).toBe(heldNow - 1);
    const erin = await createMember();
    const claimed = await call(claimAction, makeRequest(`/share/${id}`, { method: "POST", cookie: erin.cookie }), { id });
    expect(claimed.status).toBe(404);
    const page = await call(claimLoader, makeRequest(`/share/${id}`, { cookie: erin.cookie }), { id });
    expect(await page.json()).toMatchObject({ kept: false, gone: SHARE_GONE });
  });

  it("counts a visitor's shares per address (429 past the limit, nothing held)", async () => {
    limitsOn();
    const headers = { "x-pulse-peer-address": "203.0.113.77" };
    const { limit } = LIMITS.sharesPerIp;
    const { consumeLimit } = await import("~/utils/rate-limit.server");
    for (let i = 0; i < limit; i++) await consumeLimit("sharesPerIp", "203.0.113.77");
    const heldBefore = heldFiles().length;
    const response = await share([{ name: "files", filename: "x.png", contentType: "image/png", data: await png() }], null, headers);
    expect(response.status).toBe(429);
    expect(heldFiles().length).toBe(heldBefore);
  });
});

describe("the share target and the cross-site check", () => {
  const edge = (headers: Record<string, string>, url = "/share") =>
    edgeRefusal({ method: "POST", url, headers: { host: "localhost:3000", ...headers } });

  it("lets through the share the browser opens from another app (no Origin of its own, Sec-Fetch-Site: none)", async () => {
    expect(edge({ origin: "null", "sec-fetch-site": "none" })).toBeNull();
    expect(edge({ "sec-fetch-site": "none" })).toBeNull();
    expect(edge({ origin: "http://localhost:3000", "sec-fetch-site": "same-origin" })).toBeNull();
    const response = await share([{ name: "text", value: "Shared from the gallery app" }], alice.cookie, {
      Origin: "null",
      "Sec-Fetch-Site": "none",
    });
    expect(response.status).toBe(303);
  });

  it("still refuses a cross-site page's POST, an opaque origin from a page, and elsewhere a launch", async () => {
    expect(edge({ origin: "https://evil.example", "sec-fetch-site": "cross-site" })).toMatchObject({ status: 403 });
    expect(edge({ origin: "null", "sec-fetch-site": "cross-site" })).toMatchObject({ status: 403 });
    expect(edge({ origin: "https://evil.example", "sec-fetch-site": "none" })).toMatchObject({ status: 403 });
    expect(edge({ origin: "null", "sec-fetch-site": "none" }, "/create")).toMatchObject({ status: 403 });
    const rows = (await shareRows()).length;
    const response = await share([{ name: "text", value: "Forged" }], alice.cookie, {
      Origin: "https://evil.example",
      "Sec-Fetch-Site": "cross-site",
    });
    expect(response.status).toBe(403);
    expect((await shareRows()).length).toBe(rows);
  });
});
