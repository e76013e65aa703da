import { apiClub, expect, expectNoAxeViolations, test, uniqueName } from "./fixtures";

/**
 * Atom feeds (issue 26, CONTRACT.md §7 "Feeds") as a feed reader meets them: a page names its feed
 * with <link rel="alternate">, the feed answers Atom with the newest posts and a validator, and a
 * private club's feed is not there without a member's token.
 */

test("the home page names the site feed, which answers Atom with the newest post and a 304 when unchanged", async ({
  js,
  open,
  signUp,
  createPost,
  newPage,
  request,
}) => {
  await signUp();
  const post = await createPost({ title: `Atom <b>&</b> ${uniqueName("af")}` });
  const visitor = await newPage();
  await open("/", visitor);
  const link = visitor.locator('head link[rel="alternate"][type="application/atom+xml"]');
  await expect(link).toHaveCount(1);
  const href = await link.getAttribute("href");
  expect(href).toBe("/feeds/home.atom");

  const feed = await request.get(href!);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
  const xml = await feed.text();
  expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
  const escaped = post.title.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  expect(xml).toContain(`<title type="html"><![CDATA[${escaped}]]></title>`);
  expect(xml).toMatch(new RegExp(`<id>http://localhost:\\d+/post/${post.id}</id>`));
  if (js) {
    // A browser's own XML parser takes it whole (the feed is written by our code, ADR 0087).
    const parsed = await visitor.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "application/xml");
      return { errors: doc.getElementsByTagName("parsererror").length, entries: doc.getElementsByTagName("entry").length };
    }, xml);
    expect(parsed.errors).toBe(0);
    expect(parsed.entries).toBeGreaterThan(0);
  }

  const again = await request.get(href!, { headers: { "If-None-Match": feed.headers()["etag"]! } });
  expect(again.status()).toBe(304);
});

test("a member's profile names their feed; a private club's feed is a 404 without a member's token", async ({
  open,
  page,
  signUp,
  createPost,
  baseURL,
}) => {
  const member = await signUp();
  await createPost({ title: `Profile feed ${uniqueName("pf")}` });
  await open(`/profile/${member.username}`);
  await expect(page.locator('head link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute(
    "href",
    `/feeds/members/${member.username}.atom`,
  );
  const feed = await page.request.get(`/feeds/members/${member.username}.atom`);
  expect(feed.status()).toBe(200);

  const club = await apiClub(page, baseURL!, { isPrivate: true });
  await open(`/clubs/${club.id}`);
  await expect(page.locator('head link[rel="alternate"][type="application/atom+xml"]')).toHaveCount(0);
  expect((await page.request.get(`/feeds/clubs/${club.id}.atom`)).status()).toBe(404);
  expect((await page.request.get(`/feeds/clubs/${club.id}.atom?token=${"x".repeat(43)}`)).status()).toBe(404);
});

test("a phone finds each feed: a visible link on home, a tag, a profile and a public club; private addresses to copy (ux-3 U4)", async ({
  page,
  js,
  open,
  signUp,
  createPost,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const me = await signUp();
  const tag = uniqueName("tg").replace(/[^a-z0-9]/g, "");
  await createPost({ title: `Tagged ${tag}`, tags: [tag] });
  const feedLink = page.getByRole("link", { name: /Follow in a feed reader/ });

  await open("/");
  await expect(feedLink).toHaveAttribute("href", "/feeds/home.atom");
  await open(`/?search=${encodeURIComponent(`#${tag}`)}`);
  await expect(feedLink).toHaveAttribute("href", `/feeds/tags/${tag}.atom`);
  await open(`/profile/${me.username}`);
  await expect(feedLink).toHaveAttribute("href", `/feeds/members/${me.username}.atom`);
  const club = await apiClub(page, baseURL!, { isPrivate: false });
  await open(`/clubs/${club.id}`);
  await expect(feedLink).toHaveAttribute("href", `/feeds/clubs/${club.id}.atom`);
  const feed = await page.request.get((await feedLink.getAttribute("href"))!);
  expect(feed.status()).toBe(200);

  // Settings: each private club's own address, no "{club id}" template; Copy with JavaScript.
  const hidden = await apiClub(page, baseURL!, { isPrivate: true });
  await open("/settings?tab=notifications");
  const box = page.getByTestId("feed-token-settings");
  await box.getByRole("button", { name: "Create feed token" }).click();
  const address = box.getByRole("textbox", { name: hidden.name });
  await expect(address).toHaveValue(new RegExp(`/feeds/clubs/${hidden.id}\\.atom\\?token=`));
  await expect(box).not.toContainText("{club id}");
  if (js) {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await box.getByRole("button", { name: `Copy the feed address of ${hidden.name}` }).click();
    await expect(page.getByTestId("toast")).toContainText("Address copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await address.inputValue());
    await expectNoAxeViolations(page);
  } else {
    await expect(box.getByRole("button", { name: /^Copy/ })).toHaveCount(0);
  }
});
