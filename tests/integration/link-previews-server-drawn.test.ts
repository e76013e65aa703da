import Database from "better-sqlite3";
import pg from "pg";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { linkPreviews, posts, type LinkMetadata } from "#db/schema";
import { knownPreviews, setPreviewWarmer, warmingCount, withKnownPreviews } from "~/models/posts/link-preview.server";
import { createPost, getPost } from "~/models/posts/post.server";
import * as home from "~/routes/_index/route";
import { dataVersion, databaseEngine, db, first } from "~/utils/db.server";
import { getLinkMetadata } from "~/utils/link-metadata.server";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * Issue 31 (audit ux-2 N4/#12): a page of posts draws the link previews the server already knows
 * (the per-URL cache) for posts published without one, in one query for the page, and never fetches
 * while it is drawn: an unknown address is fetched off the request, and when its preview arrives
 * the posts get it and the data version (every page validator) moves on. Both engines.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let author: Member;
const noPreview = { preview: async () => null };
let n = 0;
const address = (label: string) => `https://${label}-${process.pid}-${++n}.example.org/episode`;
const metadataFor = (title: string): LinkMetadata => ({
  title,
  description: "Rattling in the rut.",
  image: null,
  siteName: "Deer Cast",
  domain: "example.org",
  logo: null,
});
const remember = (url: string, data: LinkMetadata, fetchedAt = new Date()) =>
  db.insert(linkPreviews).values({ url, data, fetchedAt }).onConflictDoUpdate({ target: linkPreviews.url, set: { data, fetchedAt } });

/** Every statement the database driver runs while `work` runs (better-sqlite3's statements, or pg's client queries). */
async function countQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const spies =
    databaseEngine() === "postgres"
      ? [vi.spyOn(pg.Client.prototype, "query")]
      : (() => {
          const probe = new Database(":memory:");
          const proto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...a: unknown[]) => unknown>;
          probe.close();
          return (["all", "get", "run", "iterate"] as const).map((m) => vi.spyOn(proto as never, m as never));
        })();
  try {
    const result = await work();
    return { result, queries: spies.reduce((sum, s) => sum + s.mock.calls.length, 0) };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

beforeAll(async () => {
  author = await createMember({ displayName: "Link Author" });
});

afterEach(() => setPreviewWarmer({ fetch: null, enabled: false }));

describe("a page's link previews come from what the server knows", () => {
  it("one query for the whole page, however many posts lack their preview", async () => {
    setPreviewWarmer({ enabled: false });
    const urls = Array.from({ length: 6 }, () => address("many"));
    for (const [i, url] of urls.entries()) await remember(url, metadataFor(`Episode ${i}`));
    const page = urls.map((mediaUrl, i) => ({ id: i, mediaUrl, urlMetadata: null as LinkMetadata | null }));

    const one = await countQueries(() => withKnownPreviews(page.slice(0, 1)));
    const six = await countQueries(() => withKnownPreviews(page));
    expect(one.queries).toBe(1);
    expect(six.queries).toBe(1);
    expect(six.result.map((p) => p.urlMetadata?.title)).toEqual(urls.map((_, i) => `Episode ${i}`));

    // Nothing to look up (every post has its preview, or no link): no query at all.
    const carried = page.map((p) => ({ ...p, urlMetadata: metadataFor("Stored") }));
    expect((await countQueries(() => withKnownPreviews([...carried, { id: 9, mediaUrl: null, urlMetadata: null }]))).queries).toBe(0);
  });

  it("the home page shows the cached preview of a post published without one, to a visitor and a member", async () => {
    setPreviewWarmer({ enabled: false });
    const url = address("home");
    const post = await createPost(
      { id: author.id },
      { title: "Late preview", content: "Listen to this one.", type: "podcast", mediaUrl: url, tags: [] },
      noPreview,
    );
    expect(post.urlMetadata).toBeNull();
    await remember(url, metadataFor("The rut, episode 12"));

    for (const cookie of [null, author.cookie]) {
      const data = (await (await call(home.loader, makeRequest("/", { cookie }))).json()) as {
        posts: { id: number; urlMetadata: LinkMetadata | null }[];
      };
      expect(data.posts.find((p) => p.id === post.id)?.urlMetadata?.title).toBe("The rut, episode 12");
    }
    // The post page too; the stored post is left as it was (a page is a read).
    expect((await getPost(null, post.id)).urlMetadata?.title).toBe("The rut, episode 12");
    expect(first(await db.select({ m: posts.urlMetadata }).from(posts).where(eq(posts.id, post.id)))?.m).toBeNull();
  });

  it("a failed preview is not shown and not fetched again before the retry time; an unknown or stale one is", async () => {
    const failed = address("failed");
    const stale = address("stale");
    const unknown = address("unknown");
    await remember(failed, { error: "The page could not be fetched" });
    await remember(stale, { error: "The page could not be fetched" }, new Date(Date.now() - 11 * 60_000));
    const { previews, unknown: toFetch } = await knownPreviews([failed, stale, unknown]);
    expect(previews.size).toBe(0);
    expect(toFetch.sort()).toEqual([stale, unknown].sort());
  });

  it("an unknown address is fetched off the request, once, and its arrival gives the posts the preview and moves the data version", async () => {
    const url = address("warm");
    const post = await createPost(
      { id: author.id },
      { title: "Unknown link", content: "Soon to be previewed.", type: "video", mediaUrl: url, tags: [] },
      noPreview,
    );
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const asked: string[] = [];
    setPreviewWarmer({
      enabled: true,
      // The outside site answers only when the test lets it, through getLinkMetadata's own store.
      fetch: async (u) => {
        asked.push(u);
        await gate;
        await storeLikeAFetch(u, metadataFor("Arrived later"));
      },
    });

    // Drawn at once with the plain link, while the fetch is still waiting on the other site.
    const drawn = await Promise.race([getPost(null, post.id), new Promise<"waited">((r) => setTimeout(r, 2_000, "waited"))]);
    expect(drawn).not.toBe("waited");
    expect((drawn as Awaited<ReturnType<typeof getPost>>).urlMetadata).toBeNull();
    await getPost(author, post.id); // asked again while the first is under way: not fetched twice
    await vi.waitFor(() => expect(asked).toEqual([url]));
    expect(warmingCount()).toBe(1);

    // The preview arrives: the post gets it (a write), so the data version and every validator move on.
    const before = await dataVersion();
    release();
    await vi.waitFor(() => expect(warmingCount()).toBe(0));
    expect(await dataVersion()).not.toBe(before);
    expect(first(await db.select({ m: posts.urlMetadata }).from(posts).where(eq(posts.id, post.id)))?.m?.title).toBe("Arrived later");
    expect((await getPost(null, post.id)).urlMetadata?.title).toBe("Arrived later");
  });
});

/** A fetch through getLinkMetadata (its store and what follows it), the outside page answered by a stub agent. */
async function storeLikeAFetch(url: string, data: LinkMetadata) {
  const { MockAgent } = await import("undici");
  const agent = new MockAgent();
  agent.disableNetConnect();
  const target = new URL(url);
  agent
    .get(target.origin)
    .intercept({ path: target.pathname })
    .reply(200, `<html><head><title>${data.title}</title><meta name="description" content="${data.description}"></head></html>`, {
      headers: { "content-type": "text/html" },
    });
  await getLinkMetadata(url, { dispatcher: agent });
  await agent.close();
}
