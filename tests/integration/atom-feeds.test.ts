import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clubMembers, users } from "#db/schema";
import { newClub } from "#tests/fixtures/clubs";
import { mp3Head, png } from "#tests/fixtures/media";
import { call, createMember, makeRequest } from "#tests/fixtures/members";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { postInput, setPostStats } from "#tests/fixtures/posts";
import { feedToken, memberByFeedToken, replaceFeedToken, storedFeedToken } from "~/models/feeds/feed-token.server";
import { removeContent } from "~/models/moderation/moderation-removal.server";
import { storeUpload } from "~/models/media/media.server";
import { createPost } from "~/models/posts/post.server";
import * as clubFeed from "~/routes/feeds.clubs.$id";
import * as homeFeed from "~/routes/feeds.home[.]atom";
import * as memberFeed from "~/routes/feeds.members.$username";
import * as tagFeed from "~/routes/feeds.tags.$tag";
import * as homeRoute from "~/routes/_index/route";
import * as clubRoute from "~/routes/clubs.$id/route";
import * as profileRoute from "~/routes/profile.$username/route";
import * as feedTokenRoute from "~/routes/settings_.feed-token";
import { loggedPath } from "~/server/request-log.server";
import { db } from "~/utils/db.server";
import { loadFeedTokenPanel } from "~/web/atom-feed.server";

/**
 * The Atom feeds (issue 26, CONTRACT.md §7 "Feeds"): the site, a tag, a member and a club, each the
 * 20 newest posts a visitor may read there, escaped, with a validator; a private club's only with a
 * member's personal feed token.
 */

const noPreview = { preview: async () => null };
const T0 = Date.UTC(2026, 5, 1);

type Loader = typeof homeFeed.loader;
const get = (loader: Loader, path: string, params: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  call(loader, makeRequest(path, { headers }), params);

/** The entries of an Atom document, read with a regex (no DOM here): title, id, summary, author. */
function entries(xml: string) {
  return [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map(([, body]) => ({
    title: /<title type="html"><!\[CDATA\[([\s\S]*?)\]\]><\/title>/.exec(body!)?.[1] ?? "",
    id: /<id>([^<]*)<\/id>/.exec(body!)?.[1] ?? "",
    author: /<author>\s*<name>([^<]*)<\/name>/.exec(body!)?.[1] ?? "",
    updated: /<updated>([^<]*)<\/updated>/.exec(body!)?.[1] ?? "",
  }));
}

/** The feed's XML is well formed enough: one root, every element closed in order. */
function expectWellFormed(xml: string) {
  expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
  const stack: string[] = [];
  const body = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, "").replace(/<\?[\s\S]*?\?>/g, "");
  for (const [tag, close, name, self] of body.matchAll(/<(\/?)([A-Za-z][\w:-]*)[^>]*?(\/?)>/g)) {
    if (self) continue;
    if (close) expect(stack.pop(), `closing ${tag}`).toBe(name);
    else stack.push(name!);
  }
  expect(stack).toEqual([]);
  expect(body).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/);
}

const idOf = (url: string) => Number(/\/post\/(\d+)$/.exec(url)?.[1]);

describe("the site feed", () => {
  it("is Atom 1.0 with the 20 newest home posts, absolute links, escaped titles, and no removed post", async () => {
    const author = await createMember({ displayName: "Sam & <Co>" });
    const ids: number[] = [];
    for (let i = 0; i < 23; i++) {
      const post = await createPost(author, postInput({ title: `Feed post ${i}` }), noPreview);
      await setPostStats(post.id, { createdAt: T0 + i * 60_000 });
      ids.push(post.id);
    }
    const nasty = await createPost(
      author,
      postInput({ title: `<script>alert("x")</script> & ]]> beans`, content: "Line one\n<b>bold</b> & more" }),
      noPreview,
    );
    await setPostStats(nasty.id, { createdAt: T0 + 30 * 60_000 });
    const removed = await createPost(author, postInput({ title: "Removed one" }), noPreview);
    await setPostStats(removed.id, { createdAt: T0 + 31 * 60_000 });
    await removeContent(await createStaff("moderator"), { type: "post", id: removed.id }, "Spam links");
    // A club post stays in its club (not on home).
    const club = await newClub(author, { isPrivate: false });
    const clubPost = await createPost(author, postInput({ title: "Club only", clubId: club.id }), noPreview);
    await setPostStats(clubPost.id, { createdAt: T0 + 32 * 60_000 });

    const res = await get(homeFeed.loader, "/feeds/home.atom");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/atom+xml; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toMatch(/^public/);
    const xml = await res.text();
    expectWellFormed(xml);
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(xml).toContain('<link rel="self" href="http://localhost:3000/feeds/home.atom"/>');
    const list = entries(xml);
    expect(list).toHaveLength(20);
    expect(list.map((e) => idOf(e.id))).toEqual([nasty.id, ...ids.slice(-19).reverse()]);
    expect(list[0]!.id).toBe(`http://localhost:3000/post/${nasty.id}`);
    expect(list[0]!.updated).toBe(new Date(T0 + 30 * 60_000).toISOString());
    // The member's text is text: HTML-escaped inside CDATA (type="html"), the CDATA end split safely.
    expect(list[0]!.title).not.toContain("<script>");
    expect(xml).toContain("<![CDATA[&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ]]&gt; beans]]>");
    expect(xml).toContain("Line one<br/>&lt;b&gt;bold&lt;/b&gt; &amp; more");
    expect(list[0]!.author).toBe("Sam &amp; &lt;Co&gt;");
    expect(xml).not.toContain("Removed one");
    expect(xml).not.toContain("Club only");
  });

  it("answers 304 to a reader whose copy is current, and a new ETag once a post arrives", async () => {
    const first = await get(homeFeed.loader, "/feeds/home.atom");
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await get(homeFeed.loader, "/feeds/home.atom", {}, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
    expect((await get(homeFeed.loader, "/feeds/home.atom", {}, { "If-None-Match": 'W/"other"' })).status).toBe(200);

    const post = await createPost(await createMember(), postInput({ title: "Fresh one" }), noPreview);
    await setPostStats(post.id, { createdAt: T0 + 60 * 60_000 });
    const changed = await get(homeFeed.loader, "/feeds/home.atom", {}, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect(await changed.text()).toContain("Fresh one");
  });
});

describe("what a reader plays and shows (ux-3 U22)", () => {
  const upload = (who: { id: number }, filename: string, data: Buffer) =>
    storeUpload(who, {
      filename,
      data: (async function* () {
        yield new Uint8Array(data);
      })(),
    });
  /** One entry's XML, by its post. */
  const entryOf = (xml: string, postId: number) =>
    [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map(([, body]) => body!).find((body) => body.includes(`/post/${postId}</id>`))!;

  it("a podcast's sound is an enclosure with its type and length, tags are categories, pictures and links are in the content", async () => {
    const host = await createMember({ displayName: "Scrape Line" });
    const sound = await upload(host, "ep42.mp3", mp3Head());
    const episode = await createPost(
      host,
      postInput({ title: "Ep. 42: nocturnal bucks", type: "podcast", tags: ["podcast", "rut"], uploadedFiles: [sound.url] }),
      noPreview,
    );
    const linked = await createPost(
      host,
      postInput({ title: "Ep. 43", type: "podcast", mediaUrl: "https://cdn.example.com/shows/ep43.MP3?dl=1" }),
      noPreview,
    );
    const video = await createPost(
      host,
      postInput({ title: "Camera tour", type: "video", mediaUrl: "https://video.example.com/watch?v=abc" }),
      noPreview,
    );
    const picture = await upload(host, "stand.png", await png(1600, 1200));
    const photo = await createPost(host, postInput({ title: "New stand", uploadedFiles: [picture.url] }), noPreview);

    const res = await get(memberFeed.loader, `/feeds/members/${host.username}.atom`, { username: `${host.username}.atom` });
    const xml = await res.text();
    expectWellFormed(xml);
    expect(xml).toContain("<icon>http://localhost:3000/favicon.svg</icon>");

    const ep42 = entryOf(xml, episode.id);
    expect(ep42).toContain(
      `<link rel="enclosure" href="http://localhost:3000${sound.url}" type="audio/mpeg" length="${mp3Head().length}" title="ep42.mp3"/>`,
    );
    expect(ep42).toContain('<category term="podcast" label="#podcast"/>');
    expect(ep42).toContain('<category term="rut" label="#rut"/>');
    // A media URL that is a sound file is enclosed too (no length known); one that is a page is related.
    expect(entryOf(xml, linked.id)).toContain(
      '<link rel="enclosure" href="https://cdn.example.com/shows/ep43.MP3?dl=1" type="audio/mpeg"/>',
    );
    const tour = entryOf(xml, video.id);
    expect(tour).toContain('<link rel="related" href="https://video.example.com/watch?v=abc"/>');
    expect(tour).not.toContain('rel="enclosure"');
    expect(tour).toContain('<a href="https://video.example.com/watch?v=abc">');
    // A picture is drawn in the content at a phone's width, not enclosed (a podcast app would download it).
    const stand = entryOf(xml, photo.id);
    expect(stand).not.toContain('rel="enclosure"');
    const img = /<img src="([^"]+)" alt="stand.png" width="(\d+)"/.exec(stand);
    expect(img?.[1]).toMatch(/^http:\/\/localhost:3000\/media\//);
    expect(Number(img?.[2])).toBeGreaterThanOrEqual(640);
    expect(Number(img?.[2])).toBeLessThan(1600);
    // The whole text is the content; the summary is its start.
    expect(stand).toMatch(/<content type="html"><!\[CDATA\[<p>/);
  });
});

describe("tag and member feeds", () => {
  it("a tag's feed is the #tag search a visitor sees; an unknown tag is a 404", async () => {
    const word = `zq${Math.random().toString(36).slice(2, 8)}`;
    const author = await createMember();
    const tagged = await createPost(author, postInput({ title: `Tagged ${word}`, tags: [word] }), noPreview);
    await createPost(author, postInput({ title: "Untagged" }), noPreview);
    const res = await get(tagFeed.loader, `/feeds/tags/${word}.atom`, { tag: `${word}.atom` });
    expect(res.status).toBe(200);
    const xml = await res.text();
    expectWellFormed(xml);
    expect(entries(xml).map((e) => idOf(e.id))).toEqual([tagged.id]);
    expect(xml).toContain(`<title>#${word} · `);

    for (const tag of [`nothing${word}.atom`, "!!!.atom", word]) {
      const missing = await get(tagFeed.loader, `/feeds/tags/${tag}`, { tag });
      expect(missing.status, tag).toBe(404);
      expect(missing.headers.get("Content-Type")).toMatch(/^text\/plain/);
    }
  });

  it("a member's feed has their visible posts, not a private club's; an unknown member is a 404", async () => {
    const author = await createMember({ displayName: "Dana Doe" });
    const owner = await createMember();
    const secret = await newClub(owner, { isPrivate: true });
    await setClubRole(secret.id, author.id, "member");
    const open = await createPost(author, postInput({ title: "Open post" }), noPreview);
    await createPost(author, postInput({ title: "Secret post", clubId: secret.id }), noPreview);
    const res = await get(memberFeed.loader, `/feeds/members/${author.username}.atom`, { username: `${author.username}.atom` });
    expect(res.status).toBe(200);
    const xml = await res.text();
    expectWellFormed(xml);
    expect(entries(xml).map((e) => idOf(e.id))).toEqual([open.id]);
    expect(xml).toContain(`<link rel="alternate" href="http://localhost:3000/profile/${author.username}"/>`);
    expect(xml).not.toContain("Secret post");
    const missing = await get(memberFeed.loader, "/feeds/members/nobody-here.atom", { username: "nobody-here.atom" });
    expect(missing.status).toBe(404);
  });
});

describe("club feeds", () => {
  it("a public club's feed is anyone's", async () => {
    const owner = await createMember();
    const club = await newClub(owner, { isPrivate: false, name: "Open Ridge" });
    const post = await createPost(owner, postInput({ title: "Ridge news", clubId: club.id }), noPreview);
    const res = await get(clubFeed.loader, `/feeds/clubs/${club.id}.atom`, { id: `${club.id}.atom` });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toMatch(/^public/);
    expect(entries(await res.text()).map((e) => idOf(e.id))).toEqual([post.id]);
    for (const id of ["999999.atom", "abc.atom", String(club.id)]) {
      expect((await get(clubFeed.loader, `/feeds/clubs/${id}`, { id })).status, id).toBe(404);
    }
  });

  it("a private club's feed opens only with a member's token, which replacing ends", async () => {
    const owner = await createMember();
    const member = await createMember();
    const outsider = await createMember();
    const club = await newClub(owner, { isPrivate: true, name: "Hidden Hollow" });
    await setClubRole(club.id, member.id, "member");
    const post = await createPost(owner, postInput({ title: "Hollow plans", clubId: club.id }), noPreview);
    const own = await createPost(member, postInput({ title: "Member's removed post", clubId: club.id }), noPreview);
    await removeContent(owner, { type: "post", id: own.id }, "Off topic");
    const path = (token?: string) => `/feeds/clubs/${club.id}.atom${token ? `?token=${encodeURIComponent(token)}` : ""}`;
    const read = (token?: string) => get(clubFeed.loader, path(token), { id: `${club.id}.atom` });

    expect(await storedFeedToken(member.id), "no token until one is asked for").toBeNull();
    const token = await feedToken(member.id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await feedToken(member.id), "made once, then kept").toBe(token);
    expect(await memberByFeedToken(token)).toMatchObject({ id: member.id });

    const none = await read();
    expect(none.status).toBe(404);
    expect(await none.text()).toBe("Club Not Found\n");
    expect((await read("not-a-token")).status).toBe(404);
    expect((await read(await feedToken(outsider.id))).status, "a non-member's token").toBe(404);

    const ok = await read(token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Cache-Control")).toBe("private, no-store");
    const xml = await ok.text();
    expectWellFormed(xml);
    // What the club's other members see: the member's own removed post is not in it.
    expect(entries(xml).map((e) => idOf(e.id))).toEqual([post.id]);
    expect(xml).toContain(`<link rel="self" href="http://localhost:3000${path(token)}"/>`);
    // A 304 too, for the reader that keeps it anyway.
    const etag = ok.headers.get("ETag")!;
    expect((await get(clubFeed.loader, path(token), { id: `${club.id}.atom` }, { "If-None-Match": etag })).status).toBe(304);

    const next = await replaceFeedToken(member.id);
    expect(next).not.toBe(token);
    expect((await read(token)).status, "the old token after a replace").toBe(404);
    expect((await read(next)).status).toBe(200);
    expect(await memberByFeedToken(token)).toBeNull();

    // A suspended member's token opens nothing while the suspension lasts.
    await db.update(users).set({ suspendedAt: new Date(), suspendedUntil: null }).where(eq(users.id, member.id));
    expect((await read(next)).status, "suspended").toBe(404);
    await db.update(users).set({ suspendedAt: null }).where(eq(users.id, member.id));
    expect((await read(next)).status).toBe(200);

    // A member who leaves (their row gone) loses the feed with the same token.
    await db.delete(clubMembers).where(and(eq(clubMembers.clubId, club.id), eq(clubMembers.userId, member.id)));
    expect((await read(next)).status).toBe(404);
  });

  it("the token never reaches the request log", () => {
    const logged = loggedPath("/feeds/clubs/7.atom?token=SECRETSECRETSECRET");
    expect(logged).toBe("/feeds/clubs/7.atom?token");
  });
});

describe("Settings: the feed token", () => {
  it("shows no token until the member makes one; the button makes, then replaces it", async () => {
    const member = await createMember();
    const owner = await createMember();
    const club = await newClub(owner, { isPrivate: true, name: "Quiet Creek" });
    await newClub(owner, { isPrivate: false, name: "Loud Creek" });
    await setClubRole(club.id, member.id, "member");

    const panel = await loadFeedTokenPanel(makeRequest("/settings?tab=notifications"), member);
    expect(panel).toEqual({ origin: "http://localhost:3000", token: null, clubs: [{ id: club.id, name: "Quiet Creek" }] });
    expect(await storedFeedToken(member.id), "a GET makes nothing").toBeNull();

    const post = () =>
      call(feedTokenRoute.action, makeRequest("/settings/feed-token", { method: "POST", form: {}, cookie: member.cookie }));
    const made = await post();
    expect(made.status).toBe(302);
    expect(made.headers.get("Location")).toBe("/settings?tab=notifications");
    expect(made.headers.get("Set-Cookie")).toContain("__toast=");
    const first = await storedFeedToken(member.id);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await post();
    const second = await storedFeedToken(member.id);
    expect(second).not.toBe(first);
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Signed out: to sign in, and nothing changes.
    const anon = await call(feedTokenRoute.action, makeRequest("/settings/feed-token", { method: "POST", form: {} }));
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/auth/);
    expect(await storedFeedToken(member.id)).toBe(second);
  });
});

describe("pages name their feeds with <link rel=alternate>", () => {
  type MetaArgs = Parameters<typeof homeRoute.meta>[0];
  const args = (data: unknown, matches: unknown[] = []) => ({ data, matches, location: {}, params: {} }) as unknown as MetaArgs;
  const alternates = (descriptors: unknown) =>
    (descriptors as Record<string, string>[]).filter((d) => d.tagName === "link" && d.rel === "alternate").map((d) => d.href);

  it("home (and a #tag search with posts), a profile, a public club but not a private one", () => {
    const root = { id: "root", meta: [{ title: "Whitetail Pulse" }] };
    const home = homeRoute.meta(args({ filters: {}, posts: [] }, [root]));
    expect(home).toContainEqual({ title: "Whitetail Pulse" });
    expect(alternates(home)).toEqual(["/feeds/home.atom"]);
    expect(alternates(homeRoute.meta(args({ filters: { search: "#BowHunting" }, posts: [{}] }, [root])))).toEqual([
      "/feeds/tags/BowHunting.atom",
      "/feeds/home.atom",
    ]);
    expect(alternates(homeRoute.meta(args({ filters: { search: "#Nothing" }, posts: [] }, [root])))).toEqual(["/feeds/home.atom"]);
    expect(alternates(homeRoute.meta(args({ filters: { search: "bow hunting" }, posts: [{}] }, [root])))).toEqual(["/feeds/home.atom"]);

    const profile = profileRoute.meta(args({ profile: { username: "dana", displayName: "Dana", bio: null } }) as never);
    expect(alternates(profile)).toEqual(["/feeds/members/dana.atom"]);
    const club = (isPrivate: boolean) => clubRoute.meta(args({ club: { id: 7, name: "Ridge", description: "d", isPrivate } }) as never);
    expect(alternates(club(false))).toEqual(["/feeds/clubs/7.atom"]);
    expect(alternates(club(true))).toEqual([]);
  });
});
