import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { linkPreviews, posts } from "#db/schema";
import { action as fetchMetadataAction } from "~/routes/api.fetch-url-metadata";
import * as postsRoute from "~/routes/api.posts";
import { db, first } from "~/utils/db.server";
import { LIMITS } from "~/utils/rate-limit.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";

/**
 * Issue 11, "Client-supplied link metadata is not trusted" (security review L7) and the limit on
 * link-preview fetches (L8). The server's own cache (link_previews) stands in for the outside site:
 * the SSRF guard keeps tests off the network.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let alice: Member;

beforeAll(async () => {
  alice = await createMember();
});
afterEach(() => limitsOff());

const ATTACKER = {
  title: "Official DNR notice",
  siteName: "Wisconsin DNR",
  domain: "dnr.wi.gov",
  image: "https://tracker.example/p.gif",
};

let n = 0;
const uniqueUrl = (host = "evil.example") => `https://${host}/page-${++n}-${Math.random().toString(36).slice(2)}`;

async function cachePreview(url: string, data: Record<string, string>) {
  await db.insert(linkPreviews).values({ url, data, fetchedAt: new Date() });
}

async function createViaApi(member: Member, mediaUrl: string, urlMetadata: unknown = ATTACKER) {
  const res = await call(
    postsRoute.action,
    makeRequest("/api/posts", {
      json: { title: "Season dates", content: "Read the notice before opening day.", type: "article", mediaUrl, urlMetadata },
      cookie: member.cookie,
    }),
  );
  expect(res.status).toBe(201);
  const post = (await res.json()) as { id: number; urlMetadata: unknown };
  const stored = first(await db.select({ urlMetadata: posts.urlMetadata }).from(posts).where(eq(posts.id, post.id)))!;
  return { answered: post.urlMetadata, stored: stored.urlMetadata };
}

describe("POST /api/posts ignores the client's urlMetadata", () => {
  it("stores the server's own (cached) preview of the URL, not the attacker's title, site or tracking image", async () => {
    const url = uniqueUrl();
    const real = { title: "Buy cheap trail cams", domain: "evil.example" };
    await cachePreview(url, real);
    const { answered, stored } = await createViaApi(alice, url);
    expect(stored).toEqual(real);
    expect(answered).toEqual(real);
    expect(JSON.stringify(stored)).not.toMatch(/DNR|tracker\.example/);
  });

  it("stores no preview when the server's fetch failed; the post is still created", async () => {
    const url = uniqueUrl();
    await cachePreview(url, { error: "The page could not be fetched" });
    const { answered, stored } = await createViaApi(alice, url);
    expect(stored).toBeNull();
    expect(answered).toBeNull();
  });

  it("stores no preview when the address may not be fetched (SSRF guard), whatever the client sent", async () => {
    const { stored } = await createViaApi(alice, `http://127.0.0.1:9/${++n}`);
    expect(stored).toBeNull();
  });
});

describe("link-preview fetches are limited per member", () => {
  const fetchPreview = (member: Member, url: string) =>
    call(fetchMetadataAction, makeRequest("/api/fetch-url-metadata", { json: { url }, cookie: member.cookie }));

  it("answers 429 with Retry-After past the hourly allowance; cached previews stay free; posts then get no new fetch", async () => {
    limitsOn();
    const member = await createMember();
    const { limit } = LIMITS.linkPreviewsPerUser;
    // Addresses the guard refuses at once: each is still one fetch the server starts.
    for (let i = 0; i < limit; i++) {
      const res = await fetchPreview(member, `http://127.0.0.1:9/limit-${member.id}-${i}`);
      expect(res.status, `fetch ${i + 1}`).toBe(200);
    }
    const refused = await fetchPreview(member, `http://127.0.0.1:9/limit-${member.id}-over`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toBeTruthy();

    // A preview the server already has costs no fetch: still answered.
    const cached = uniqueUrl("deercamp.example");
    await cachePreview(cached, { title: "Rattling sequences", domain: "deercamp.example" });
    const reused = await fetchPreview(member, cached);
    expect(reused.status).toBe(200);
    expect(await reused.json()).toEqual({ title: "Rattling sequences", domain: "deercamp.example" });

    // The create path counts against the same limit: over it, a new URL is not fetched (no cache
    // row appears) and the post is published without a preview; a cached preview is still used.
    const fresh = uniqueUrl("deercamp.example");
    expect((await createViaApi(member, fresh, undefined)).stored).toBeNull();
    expect(first(await db.select().from(linkPreviews).where(eq(linkPreviews.url, fresh)))).toBeUndefined();
    expect((await createViaApi(member, cached, undefined)).stored).toEqual({ title: "Rattling sequences", domain: "deercamp.example" });

    // Another member has their own allowance.
    expect((await fetchPreview(alice, `http://127.0.0.1:9/limit-other-${n++}`)).status).toBe(200);
  });
});
