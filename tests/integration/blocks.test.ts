import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { blocks, follows } from "#db/schema";
import { followUser } from "~/models/members/follow.server";
import { createPost } from "~/models/posts/post.server";
import * as apiBlocks from "~/routes/api.auth.blocks";
import * as apiBlock from "~/routes/api.users.$username.block";
import * as apiComments from "~/routes/api.posts.$id.comments";
import * as apiFollow from "~/routes/api.users.$username.follow";
import * as profilePage from "~/routes/profile.$username/route";
import * as settingsPage from "~/routes/settings/route";
import { db } from "~/utils/db.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import { postInput } from "../fixtures/posts";

/** CONTRACT.md §8 "Blocks" through its HTTP surface: the JSON API and Settings › Privacy, as a visitor, another member and the owner. */

const body = async (res: Response) => (await res.json()) as any;
const blocked = async (blockerId: number, blockedId: number) =>
  (
    await db
      .select()
      .from(blocks)
      .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
  ).length > 0;
const blockCount = async () => (await db.select().from(blocks)).length;

const block = (method: "POST" | "DELETE", username: string, cookie?: string, headers?: Record<string, string>) =>
  call(apiBlock.action, makeRequest(`/api/users/${username}/block`, { method, cookie, headers }), { username });
const list = (cookie?: string, query = "") => call(apiBlocks.loader, makeRequest(`/api/auth/blocks${query}`, { cookie }));

describe("POST / DELETE /api/users/{username}/block, GET /api/auth/blocks", () => {
  it("the owner blocks and unblocks idempotently (200 { blocked }) and lists their blocks", async () => {
    const me = await createMember();
    const other = await createMember();
    for (let i = 0; i < 2; i++) {
      const res = await block("POST", other.username, me.cookie);
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual({ blocked: true });
    }
    expect(await blocked(me.id, other.id)).toBe(true);

    const mine = await list(me.cookie);
    expect(mine.status).toBe(200);
    const items = await body(mine);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ username: other.username, displayName: other.displayName, avatar: null });
    expect(typeof items[0].blockedAt).toBe("string");
    // Another member's list does not show it.
    expect(await body(await list(other.cookie))).toEqual([]);

    for (let i = 0; i < 2; i++) {
      const res = await block("DELETE", other.username, me.cookie);
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual({ blocked: false });
    }
    expect(await blocked(me.id, other.id)).toBe(false);
    expect(await body(await list(me.cookie))).toEqual([]);
  });

  it("pages the list with a Link header", async () => {
    const me = await createMember();
    const a = await createMember();
    const b = await createMember();
    await block("POST", a.username, me.cookie);
    await block("POST", b.username, me.cookie);
    const first = await list(me.cookie, "?limit=1");
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("Link") ?? "")?.[1];
    expect(next).toBeTruthy();
    const second = await list(me.cookie, new URL(next!).search);
    const names = [...(await body(first)), ...(await body(second))].map((x: { username: string }) => x.username).sort();
    expect(names).toEqual([a.username, b.username].sort());
  });

  it("refuses a visitor (401), oneself (400), an unknown member (404) and another site (403), changing nothing", async () => {
    const me = await createMember();
    const other = await createMember();
    const before = await blockCount();
    expect((await block("POST", other.username)).status).toBe(401);
    expect((await block("DELETE", other.username)).status).toBe(401);
    expect((await list()).status).toBe(401);
    const self = await block("POST", me.username, me.cookie);
    expect(self.status).toBe(400);
    expect((await body(self)).error).toBe("You can't block yourself");
    expect((await block("POST", "nobody_at_all", me.cookie)).status).toBe(404);
    expect((await block("POST", other.username, me.cookie, { Origin: "https://evil.example" })).status).toBe(403);
    expect(await blockCount()).toBe(before);
  });

  it("a blocked member's follow and comment get 403 with a clear message", async () => {
    const owner = await createMember();
    const pest = await createMember();
    const post = await createPost({ id: owner.id }, postInput());
    await followUser({ id: pest.id }, owner.username);
    await block("POST", pest.username, owner.cookie);
    // The block ended the follow.
    expect((await db.select().from(follows).where(eq(follows.followerId, pest.id))).length).toBe(0);

    const follow = await call(
      apiFollow.action,
      makeRequest(`/api/users/${owner.username}/follow`, { method: "POST", cookie: pest.cookie }),
      {
        username: owner.username,
      },
    );
    expect(follow.status).toBe(403);
    expect((await body(follow)).error).toBe("You can't follow this member");
    const comment = await call(
      apiComments.action,
      makeRequest(`/api/posts/${post.id}/comments`, { json: { content: "Let me in" }, cookie: pest.cookie }),
      { id: String(post.id) },
    );
    expect(comment.status).toBe(403);
    expect((await body(comment)).error).toBe("You can't comment on this member's posts");
  });
});

describe("Settings › Privacy › Blocked members", () => {
  const settings = (query: string, cookie?: string) => call(settingsPage.loader, makeRequest(`/settings${query}`, { cookie }));
  const post = (form: Record<string, string>, cookie?: string) =>
    call(settingsPage.action, makeRequest("/settings?tab=privacy", { form, cookie }));

  it("lists the members blocked, only on the Privacy tab, and Unblock (a plain form) redirects back with a toast", async () => {
    const me = await createMember();
    const other = await createMember();
    await block("POST", other.username, me.cookie);

    const data = await body(await settings("?tab=privacy", me.cookie));
    expect(data.blocked.members.map((m: { username: string }) => m.username)).toEqual([other.username]);
    expect(data.blocked.moreHref).toBeNull();
    expect((await body(await settings("?tab=profile", me.cookie))).blocked).toBeNull();

    const res = await post({ intent: "unblock", username: other.username }, me.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/settings?tab=privacy");
    expect(res.headers.get("Set-Cookie")).toMatch(/toast/i);
    expect(await blocked(me.id, other.id)).toBe(false);
    expect((await body(await settings("?tab=privacy", me.cookie))).blocked.members).toEqual([]);
  });

  it("a visitor's unblock changes nothing, and an unknown name is 404", async () => {
    const me = await createMember();
    const other = await createMember();
    await block("POST", other.username, me.cookie);
    const anon = await post({ intent: "unblock", username: other.username });
    // Sent to sign in (withPageErrors), never back to the list.
    expect(anon.headers.get("Location") ?? "").not.toBe("/settings?tab=privacy");
    expect(await blocked(me.id, other.id)).toBe(true);
    const unknown = await post({ intent: "unblock", username: "nobody_at_all" }, me.cookie);
    expect(unknown.status).toBe(404);
    expect(await blocked(me.id, other.id)).toBe(true);
  });
});

describe("the profile page's Block / Unblock", () => {
  const page = (username: string, cookie?: string) =>
    call(profilePage.loader, makeRequest(`/profile/${username}`, { cookie }), { username });
  const send = (username: string, intent: string, cookie?: string) =>
    call(profilePage.action, makeRequest(`/profile/${username}`, { form: { intent }, cookie }), { username });

  it("blocks and unblocks with plain forms, back to the profile with a toast; the page says so and hides their posts", async () => {
    const me = await createMember();
    const other = await createMember();
    const theirs = await createPost({ id: other.id }, postInput({ title: "A post to hide" }));
    expect((await body(await page(other.username, me.cookie))).blocked).toBe(false);

    const res = await send(other.username, "block", me.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/profile/${other.username}`);
    expect(await blocked(me.id, other.id)).toBe(true);
    const after = await body(await page(other.username, me.cookie));
    expect(after.blocked).toBe(true);
    expect(after.posts.map((p: { id: number }) => p.id)).not.toContain(theirs.id);
    // The blocked member's own view of the blocker's profile says nothing of it.
    expect((await body(await page(me.username, other.cookie))).blocked).toBe(false);

    expect((await send(other.username, "unblock", me.cookie)).status).toBe(302);
    expect(await blocked(me.id, other.id)).toBe(false);
  });

  it("a visitor is sent to sign in and oneself is refused, changing nothing", async () => {
    const me = await createMember();
    const other = await createMember();
    const before = await blockCount();
    const anon = await send(other.username, "block");
    expect(anon.headers.get("Location") ?? "").toMatch(/^\/auth/);
    expect((await send(me.username, "block", me.cookie)).status).toBe(400);
    expect(await blockCount()).toBe(before);
  });
});
