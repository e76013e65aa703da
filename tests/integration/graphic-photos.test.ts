import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { moderationLog, posts } from "#db/schema";
import { newClub } from "#tests/fixtures/clubs";
import { call, createMember, makeRequest } from "#tests/fixtures/members";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { failure, makeMedia, postInput } from "#tests/fixtures/posts";
import { setBlurGraphic } from "~/models/members/graphic-photos.server";
import { setPostSensitive } from "~/models/moderation/moderation-sensitive.server";
import { pushPayload } from "~/models/notifications/push.server";
import { createPost, getPost, updatePost } from "~/models/posts/post.server";
import * as sensitiveRoute from "~/routes/api.moderation.posts.$id.sensitive";
import * as postsRoute from "~/routes/api.posts";
import * as postRoute from "~/routes/api.posts.$id";
import * as memberFeed from "~/routes/feeds.members.$username";
import * as postPage from "~/routes/post.$id/route";
import * as moderatePage from "~/routes/post.$id_.moderate";
import * as settingsPage from "~/routes/settings/route";
import { postInputSchema, postUpdateSchema } from "~/schemas/post";
import { db, first } from "~/utils/db.server";
import { readSession, viewerKey, viewerTag } from "~/web/session.server";

/**
 * Graphic photos (issue 43 item 4, CONTRACT.md §14, docs/decisions/0091-graphic-photos.md): a post's
 * `sensitive` mark, set by its author on create and edit (JSON and form) and by the staff who may
 * remove it (logged); the member's "Blur graphic photos" setting as part of whom a page is drawn for;
 * and no picture of a graphic post in a feed or a push.
 */

const noPreview = { preview: async () => null };
type Member = Awaited<ReturnType<typeof createMember>>;

const stored = async (id: number) => first(await db.select({ sensitive: posts.sensitive }).from(posts).where(eq(posts.id, id)))!.sensitive;
const logged = async (id: number) =>
  (
    await db
      .select({ action: moderationLog.action })
      .from(moderationLog)
      .where(and(eq(moderationLog.targetType, "post"), eq(moderationLog.targetId, id)))
  ).map((r) => r.action);

const mark = (id: number, who: Member | null, sensitive: unknown) =>
  call(sensitiveRoute.action, makeRequest(`/api/moderation/posts/${id}/sensitive`, { json: { sensitive }, cookie: who?.cookie }), {
    id: String(id),
  });

describe("the mark on create and edit (the author)", () => {
  it("JSON: POST /api/posts takes `sensitive: true` and the post answers it; absent is false; PUT sets, keeps when absent, clears", async () => {
    const author = await createMember();
    const res = await call(
      postsRoute.action,
      makeRequest("/api/posts", { json: { ...postInput(), sensitive: true }, cookie: author.cookie }),
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: number; sensitive: boolean };
    expect(created.sensitive).toBe(true);
    expect(await stored(created.id)).toBe(true);

    const plain = await createPost(author, postInput(), noPreview);
    expect(plain.sensitive).toBe(false);

    const put = (json: unknown) =>
      call(postRoute.action, makeRequest(`/api/posts/${created.id}`, { method: "PUT", json, cookie: author.cookie }), {
        id: String(created.id),
      });
    const { title, content } = postInput();
    expect(((await (await put({ title, content })).json()) as { sensitive: boolean }).sensitive).toBe(true);
    expect(((await (await put({ title, content, sensitive: false })).json()) as { sensitive: boolean }).sensitive).toBe(false);
    expect(await stored(created.id)).toBe(false);
    // The author's own edits are not moderation decisions.
    expect(await logged(created.id)).toEqual([]);
  });

  it("the form: the box's `on` marks it, the edit form's hidden `off` before the box clears it, `off` then `on` marks it", () => {
    expect(postInputSchema.parse({ ...postInput(), sensitive: "on" }).sensitive).toBe(true);
    expect(postInputSchema.parse(postInput()).sensitive).toBeUndefined();
    const { title, content } = postInput();
    expect(postUpdateSchema.parse({ title, content, sensitive: ["off", "on"] }).sensitive).toBe(true);
    expect(postUpdateSchema.parse({ title, content, sensitive: "off" }).sensitive).toBe(false);
    expect(postUpdateSchema.parse({ title, content }).sensitive).toBeUndefined();
  });

  it("the post page's edit form (JavaScript off): ticking and unticking the box", async () => {
    const author = await createMember();
    const post = await createPost(author, postInput(), noPreview);
    const { title, content } = postInput();
    const edit = (sensitive: string[]) =>
      call(
        postPage.action,
        makeRequest(`/post/${post.id}`, { form: { intent: "update", title, content, sensitive }, cookie: author.cookie }),
        {
          id: String(post.id),
        },
      );
    expect((await edit(["off", "on"])).status).toBe(302);
    expect(await stored(post.id)).toBe(true);
    expect((await edit(["off"])).status).toBe(302);
    expect(await stored(post.id)).toBe(false);
  });

  it("another member cannot change the mark by editing (403), a visitor neither (401)", async () => {
    const author = await createMember();
    const other = await createMember();
    const post = await createPost(author, postInput(), noPreview);
    const edit = {
      title: "Reading rub lines",
      content: "Rubs in late October tell you more.",
      mediaUrl: null,
      tags: null,
      sensitive: true,
    };
    expect((await failure(() => updatePost(other, post.id, edit))).status).toBe(403);
    expect((await failure(() => updatePost(null, post.id, edit))).status).toBe(401);
    expect(await stored(post.id)).toBe(false);
  });
});

describe("the staff's mark: POST /api/moderation/posts/{id}/sensitive and /post/{id}/moderate", () => {
  it("visitor 401, another member 403, the author 403 (they edit instead); a site moderator marks and clears it, each logged once", async () => {
    const author = await createMember();
    const other = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput(), noPreview);

    expect((await mark(post.id, null, true)).status).toBe(401);
    expect((await mark(post.id, other, true)).status).toBe(403);
    expect((await mark(post.id, author, true)).status).toBe(403);
    expect((await mark(post.id, moderator, "yes")).status).toBe(400);
    expect(await stored(post.id)).toBe(false);
    expect(await logged(post.id)).toEqual([]);

    const res = await mark(post.id, moderator, true);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: post.id, sensitive: true });
    expect((await getPost(null, post.id)).sensitive).toBe(true);
    // Again: nothing changes, nothing more is logged.
    expect((await mark(post.id, moderator, true)).status).toBe(200);
    expect(await logged(post.id)).toEqual(["mark_sensitive"]);

    await setPostSensitive(moderator, post.id, false);
    expect(await stored(post.id)).toBe(false);
    expect(await logged(post.id)).toEqual(["mark_sensitive", "unmark_sensitive"]);
    expect((await mark(999_999, moderator, true)).status).toBe(404);
  });

  it("a club's admin marks the club's posts, not their own, nor posts outside the club", async () => {
    const owner = await createMember();
    const club = await newClub(owner);
    const [author, admin] = [await createMember(), await createMember()];
    await setClubRole(club.id, author.id, "member");
    await setClubRole(club.id, admin.id, "admin");
    const clubPost = await createPost(author, postInput({ clubId: club.id }), noPreview);
    const ownPost = await createPost(admin, postInput({ clubId: club.id }), noPreview);
    const homePost = await createPost(author, postInput(), noPreview);

    expect((await mark(clubPost.id, admin, true)).status).toBe(200);
    expect(await stored(clubPost.id)).toBe(true);
    expect((await failure(() => setPostSensitive(admin, ownPost.id, true))).status).toBe(403);
    expect((await failure(() => setPostSensitive(admin, homePost.id, true))).status).toBe(403);
    expect([await stored(ownPost.id), await stored(homePost.id)]).toEqual([false, false]);
  });

  it("the moderate page's plain form marks and clears it, back to the post; its loader says which", async () => {
    const author = await createMember();
    const moderator = await createStaff("moderator");
    const post = await createPost(author, postInput(), noPreview);
    const send = (intent: string) =>
      call(moderatePage.action, makeRequest(`/post/${post.id}/moderate`, { form: { intent }, cookie: moderator.cookie }), {
        id: String(post.id),
      });
    const res = await send("mark-sensitive");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/post/${post.id}`);
    expect(await stored(post.id)).toBe(true);
    const page = await call(moderatePage.loader, makeRequest(`/post/${post.id}/moderate`, { cookie: moderator.cookie }), {
      id: String(post.id),
    });
    expect(((await page.json()) as { sensitive: boolean }).sensitive).toBe(true);
    await send("unmark-sensitive");
    expect(await stored(post.id)).toBe(false);
    // A member's form to the same page changes nothing.
    const other = await createMember();
    const refused = await call(
      moderatePage.action,
      makeRequest(`/post/${post.id}/moderate`, { form: { intent: "mark-sensitive" }, cookie: other.cookie }),
      {
        id: String(post.id),
      },
    );
    expect(refused.status).toBe(403);
    expect(await stored(post.id)).toBe(false);
  });
});

describe("Settings › Privacy › Blur graphic photos", () => {
  it("is on by default, the plain form turns it off and on, and it is part of the page validator and of the saved pages' viewer", async () => {
    const member = await createMember();
    const request = () => makeRequest("/", { cookie: member.cookie });
    expect((await readSession(request())).signedIn?.blurGraphic).toBe(true);
    const blurredKey = await viewerKey(request());
    const blurredTag = await viewerTag(request());

    // The Data saver form carries the box: sent without it, it is off (data saver stays as it was: off).
    const res = await call(
      settingsPage.action,
      makeRequest("/settings?tab=privacy", { form: { intent: "data-saver" }, cookie: member.cookie }),
    );
    expect(res.status).toBe(302);
    expect((await readSession(request())).signedIn?.blurGraphic).toBe(false);
    // A page drawn with the pictures has another validator, and the worker keeps it as another viewer's.
    expect(await viewerKey(request())).not.toBe(blurredKey);
    expect(await viewerTag(request())).not.toBe(blurredTag);

    await call(
      settingsPage.action,
      makeRequest("/settings?tab=privacy", { form: { intent: "data-saver", blurGraphic: "on" }, cookie: member.cookie }),
    );
    expect(await viewerKey(request())).toBe(blurredKey);
    expect(await viewerTag(request())).toBe(blurredTag);
    // The same setting, straight from the model (and only the member's own).
    await setBlurGraphic(member, false);
    expect((await readSession(request())).signedIn?.blurGraphic).toBe(false);
    expect((await failure(() => setBlurGraphic(null, false))).status).toBe(401);
  });
});

describe("feeds and pushes carry no picture of a graphic post", () => {
  it("Atom: a graphic post's entry has no <img> and no image enclosure, and says where the picture is; a plain post keeps its picture", async () => {
    const author = await createMember();
    const graphic = await createPost(
      author,
      postInput({ title: "Field dressed", uploadedFiles: [await makeMedia(author.id)], sensitive: true }),
      noPreview,
    );
    const plain = await createPost(author, postInput({ title: "Ridge at dawn", uploadedFiles: [await makeMedia(author.id)] }), noPreview);
    const res = await call(memberFeed.loader, makeRequest(`/feeds/members/${author.username}.atom`), {
      username: `${author.username}.atom`,
    });
    expect(res.status).toBe(200);
    const xml = await res.text();
    const entryOf = (id: number) =>
      [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((m) => m[1]!).find((e) => e.includes(`/post/${id}</id>`))!;
    const graphicEntry = entryOf(graphic.id);
    expect(graphicEntry).not.toMatch(/<img|&lt;img|rel="enclosure"/);
    expect(graphicEntry).not.toContain(graphic.uploadedFiles[0]!.url.replace(/^\/media\//, ""));
    expect(graphicEntry).toContain("Graphic photo: open the post to see it");
    expect(entryOf(plain.id)).toContain("<img");
  });

  it("a push names the post in words only: no image, whatever the post", () => {
    const payload = pushPayload([{ id: 1, text: "Sam commented on Field dressed", href: "/post/1" }]);
    expect(Object.keys(payload ?? {}).sort()).toEqual(["body", "tag", "title", "url"]);
  });
});
