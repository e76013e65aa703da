import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { media, sessions, users } from "#db/schema";
import { listFeed } from "~/models/feeds/feed.server";
import { createPost } from "~/models/posts/post.server";
import * as apiLogin from "~/routes/api.auth.login";
import * as apiPassword from "~/routes/api.auth.password";
import * as apiProfile from "~/routes/api.auth.profile";
import * as apiUser from "~/routes/api.auth.user";
import * as apiUsers from "~/routes/api.users.$username";
import * as apiFollow from "~/routes/api.users.$username.follow";
import * as apiUserPosts from "~/routes/api.users.$username.posts";
import * as profilePage from "~/routes/profile.$username/route";
import * as followersPage from "~/routes/profile.$username_.followers";
import * as followingPage from "~/routes/profile.$username_.following";
import * as settingsPage from "~/routes/settings/route";
import { db, first } from "~/utils/db.server";
import { call, cookiesFrom, createMember, makeRequest } from "../fixtures/members";

const rowOf = async (id: number) => first(await db.select().from(users).where(eq(users.id, id)))!;
const sessionCountOf = async (id: number) => (await db.select().from(sessions).where(eq(sessions.userId, id))).length;
const body = async (res: Response) => (await res.json()) as Record<string, any>;

async function newPost(authorId: number, title = "A post about the rut") {
  return createPost({ id: authorId }, { title, content: "Bucks are chasing does in the creek bottom.", type: "article" });
}

describe("GET /api/users/{username}", () => {
  it("answers the public profile; the email only to its owner; 404 for unknown", async () => {
    const owner = await createMember();
    const other = await createMember();
    const path = `/api/users/${owner.username}`;
    const params = { username: owner.username };

    const anon = await call(apiUsers.loader, makeRequest(path), params);
    expect(anon.status).toBe(200);
    const anonBody = await body(anon);
    expect(anonBody).toMatchObject({ id: owner.id, username: owner.username, displayName: owner.displayName, isFollowing: false });
    expect(anonBody).toHaveProperty("followersCount", 0);
    expect(anonBody).not.toHaveProperty("email");

    const seen = await body(await call(apiUsers.loader, makeRequest(path, { cookie: other.cookie }), params));
    expect(seen).not.toHaveProperty("email");
    const self = await body(await call(apiUsers.loader, makeRequest(path, { cookie: owner.cookie }), params));
    expect(self.email).toBe(owner.email);
    for (const b of [anonBody, seen, self]) expect(JSON.stringify(b)).not.toMatch(/passwordHash|sessionVersion|\$scrypt/);

    const missing = await call(apiUsers.loader, makeRequest("/api/users/nobody_at_all"), { username: "nobody_at_all" });
    expect(missing.status).toBe(404);
    expect(await body(missing)).toEqual({ error: "Profile Not Found" });
  });
});

describe("PATCH /api/users/{username}", () => {
  const patch = (username: string, json: unknown, cookie?: string) =>
    call(apiUsers.action, makeRequest(`/api/users/${username}`, { method: "PATCH", json, cookie }), { username });

  it("is self only: 401 anonymous, 403 another member (whatever the body), 200 the owner", async () => {
    const owner = await createMember();
    const other = await createMember();

    expect((await patch(owner.username, { displayName: "Hacked" })).status).toBe(401);
    expect((await patch(owner.username, { displayName: "Hacked" }, other.cookie)).status).toBe(403);
    expect((await patch(owner.username, { displayName: "" }, other.cookie)).status).toBe(403);
    expect((await rowOf(owner.id)).displayName).toBe(owner.displayName);

    const ok = await patch(owner.username, { displayName: "Ridge Walker", bio: "Bowhunter", location: "Vilas County, WI" }, owner.cookie);
    expect(ok.status).toBe(200);
    expect(await body(ok)).toMatchObject({
      displayName: "Ridge Walker",
      bio: "Bowhunter",
      location: "Vilas County, WI",
      email: owner.email,
    });
  });

  it("answers SPEC.md §5's messages and changes nothing", async () => {
    const owner = await createMember();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ displayName: "" }, "displayName", "Display name is required"],
      [{ displayName: "   " }, "displayName", "Display name is required"],
      [{ displayName: "x".repeat(51) }, "displayName", "Display name too long"],
      [{ bio: "x".repeat(501) }, "bio", "Bio too long"],
      [{ location: "x".repeat(101) }, "location", "Location too long"],
    ];
    for (const [json, field, message] of cases) {
      const res = await patch(owner.username, { ...json, displayName: json.displayName ?? "Fine Name" }, owner.cookie);
      expect(res.status).toBe(400);
      expect((await body(res)).fieldErrors[field]).toEqual([message]);
    }
    expect(await rowOf(owner.id)).toMatchObject({ displayName: owner.displayName, bio: null, location: null });
    // Limits are inclusive.
    expect(
      (await patch(owner.username, { displayName: "x".repeat(50), bio: "x".repeat(500), location: "x".repeat(100) }, owner.cookie)).status,
    ).toBe(200);
  });

  it("sets {avatar} only to the member's own uploaded image", async () => {
    const owner = await createMember();
    const other = await createMember();
    const mine = `/media/test-${owner.id}-avatar.webp`;
    const theirs = `/media/test-${other.id}-avatar.webp`;
    for (const [ownerId, url] of [
      [owner.id, mine],
      [other.id, theirs],
    ] as const) {
      await db.insert(media).values({ ownerId, url, kind: "image", storageKey: url, name: "a.webp", mimeType: "image/webp", size: 1 });
    }
    for (const url of [theirs, "https://tracker.example/p.gif", "javascript:alert(1)"]) {
      const res = await patch(owner.username, { avatar: url }, owner.cookie);
      expect(res.status).toBe(400);
      expect((await body(res)).fieldErrors).toEqual({ avatar: ["Choose an image you uploaded"] });
    }
    const ok = await patch(owner.username, { avatar: mine }, owner.cookie);
    expect(ok.status).toBe(200);
    expect((await body(ok)).avatar).toBe(mine);
    expect((await body(await patch(owner.username, { avatar: null }, owner.cookie))).avatar).toBeNull();
  });

  it("refuses a cross-site PATCH", async () => {
    const owner = await createMember();
    const res = await call(
      apiUsers.action,
      makeRequest(`/api/users/${owner.username}`, {
        method: "PATCH",
        json: { displayName: "X" },
        cookie: owner.cookie,
        headers: { Origin: "https://evil.example" },
      }),
      { username: owner.username },
    );
    expect(res.status).toBe(403);
    expect((await rowOf(owner.id)).displayName).toBe(owner.displayName);
  });
});

describe("PUT /api/auth/profile", () => {
  const put = (json: unknown, cookie?: string) =>
    call(apiProfile.action, makeRequest("/api/auth/profile", { method: "PUT", json, cookie }));

  it("updates the signed-in member, email included; 401 signed out", async () => {
    const owner = await createMember();
    expect((await put({ displayName: "X", email: "x@example.com" })).status).toBe(401);
    const res = await put(
      { displayName: "Doe Talker", email: "Doe.Talker@Example.com", bio: "", location: "Pike County, IL", currentPassword: owner.password },
      owner.cookie,
    );
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({
      displayName: "Doe Talker",
      email: "doe.talker@example.com",
      bio: null,
      location: "Pike County, IL",
    });
  });

  it("needs a valid email not used by another member (409 on email)", async () => {
    const owner = await createMember();
    const other = await createMember();
    const bad = await put({ displayName: "Name", email: "not-an-email" }, owner.cookie);
    expect(bad.status).toBe(400);
    expect((await body(bad)).fieldErrors.email).toEqual(["Invalid email address"]);
    const missing = await put({ displayName: "Name" }, owner.cookie);
    expect((await body(missing)).fieldErrors.email).toEqual(["Invalid email address"]);

    const taken = await put({ displayName: "Name", email: other.email, currentPassword: owner.password }, owner.cookie);
    expect(taken.status).toBe(409);
    expect((await body(taken)).fieldErrors).toEqual({ email: ["Email is already registered"] });
    expect(await rowOf(owner.id)).toMatchObject({ email: owner.email, displayName: owner.displayName });
  });
});

describe("changing the email through the API needs the current password (security-2 N4)", () => {
  const put = (json: unknown, cookie?: string) =>
    call(apiProfile.action, makeRequest("/api/auth/profile", { method: "PUT", json, cookie }));
  const patch = (username: string, json: unknown, cookie?: string) =>
    call(apiUsers.action, makeRequest(`/api/users/${username}`, { method: "PATCH", json, cookie }), { username });
  const NEEDED = { currentPassword: ["Enter your current password to change your email"] };
  const WRONG = { currentPassword: ["Current password is incorrect"] };

  it("PUT /api/auth/profile: 401 anonymous; missing or wrong 400 on currentPassword; unchanged email needs none", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const change = { displayName: "Victim", email: "attacker-box@evil.example", bio: null, location: null };
    expect((await put({ ...change, currentPassword: "oldpass1" })).status).toBe(401);
    const missing = await put(change, owner.cookie);
    expect(missing.status).toBe(400);
    expect((await body(missing)).fieldErrors).toEqual(NEEDED);
    const wrong = await put({ ...change, currentPassword: "guessed1" }, owner.cookie);
    expect(wrong.status).toBe(400);
    expect((await body(wrong)).fieldErrors).toEqual(WRONG);
    expect(await rowOf(owner.id)).toMatchObject({ email: owner.email, displayName: owner.displayName });

    const same = await put({ displayName: "Still Me", email: owner.email, bio: null, location: null }, owner.cookie);
    expect(same.status).toBe(200);
    const ok = await put({ ...change, email: "mine@example.com", currentPassword: "oldpass1" }, owner.cookie);
    expect(ok.status).toBe(200);
    expect((await rowOf(owner.id)).email).toBe("mine@example.com");
  });

  it("PATCH /api/users/{username}: another member 403 even with a password; the owner needs theirs", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const other = await createMember({ password: "otherpass1" });
    expect((await patch(owner.username, { email: "x@evil.example", currentPassword: "oldpass1" })).status).toBe(401);
    expect((await patch(owner.username, { email: "x@evil.example", currentPassword: "otherpass1" }, other.cookie)).status).toBe(403);
    const missing = await patch(owner.username, { email: "x@evil.example" }, owner.cookie);
    expect(missing.status).toBe(400);
    expect((await body(missing)).fieldErrors).toEqual(NEEDED);
    const wrong = await patch(owner.username, { email: "x@evil.example", currentPassword: "otherpass1" }, owner.cookie);
    expect((await body(wrong)).fieldErrors).toEqual(WRONG);
    expect((await rowOf(owner.id)).email).toBe(owner.email);
    // Fields other than the email need no password.
    expect((await patch(owner.username, { displayName: "Ridge Walker" }, owner.cookie)).status).toBe(200);
    const ok = await patch(owner.username, { email: "Ridge@Example.com", currentPassword: "oldpass1" }, owner.cookie);
    expect(ok.status).toBe(200);
    expect((await body(ok)).email).toBe("ridge@example.com");
  });
});

describe("PUT /api/auth/password", () => {
  const put = (json: unknown, cookie?: string) =>
    call(apiPassword.action, makeRequest("/api/auth/password", { method: "PUT", json, cookie }));
  const whoAmI = (cookie: string) => call(apiUser.loader, makeRequest("/api/auth/user", { cookie }));

  it("answers each rule's message", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const empty = await body(await put({}, owner.cookie));
    expect(empty.fieldErrors).toEqual({
      currentPassword: ["Current password is required"],
      newPassword: ["Password must be at least 6 characters"],
      confirmPassword: ["Please confirm your password"],
    });
    const short = await body(await put({ currentPassword: "oldpass1", newPassword: "abc", confirmPassword: "abc" }, owner.cookie));
    expect(short.fieldErrors).toEqual({ newPassword: ["Password must be at least 6 characters"] });
    const mismatch = await put({ currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass2" }, owner.cookie);
    expect(mismatch.status).toBe(400);
    expect((await body(mismatch)).fieldErrors).toEqual({ confirmPassword: ["Passwords don't match"] });
    const wrong = await put({ currentPassword: "wrongpass", newPassword: "newpass1", confirmPassword: "newpass1" }, owner.cookie);
    expect(wrong.status).toBe(400);
    expect((await body(wrong)).fieldErrors).toEqual({ currentPassword: ["Current password is incorrect"] });
    expect(await sessionCountOf(owner.id)).toBe(1);
    expect((await put({ currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass1" })).status).toBe(401);
  });

  it("ends the member's other sessions and keeps the one that changed it", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const other = await createMember();
    const laptop = owner.cookie;
    // The same member signed in on a second device.
    const login = await call(apiLogin.action, makeRequest("/api/auth/login", { json: { username: owner.username, password: "oldpass1" } }));
    expect(login.status).toBe(200);
    const phone = cookiesFrom(login);
    expect((await whoAmI(phone)).status).toBe(200);

    const res = await put({ currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass1" }, laptop);
    expect(res.status).toBe(204);
    const fresh = cookiesFrom(res);
    expect(fresh).toMatch(/__session=/);

    expect((await whoAmI(phone)).status).toBe(401);
    expect((await whoAmI(laptop)).status).toBe(401);
    const me = await whoAmI(fresh);
    expect(me.status).toBe(200);
    expect((await body(me)).id).toBe(owner.id);
    // Another member's session is untouched.
    expect((await whoAmI(other.cookie)).status).toBe(200);
  });
});

describe("POST / DELETE /api/users/{username}/follow", () => {
  const follow = (method: "POST" | "DELETE", username: string, cookie?: string, headers?: Record<string, string>) =>
    call(apiFollow.action, makeRequest(`/api/users/${username}/follow`, { method, cookie, headers }), { username });

  it("is idempotent and keeps both counters", async () => {
    const a = await createMember();
    const b = await createMember();
    for (let i = 0; i < 2; i++) {
      const res = await follow("POST", b.username, a.cookie);
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual({ following: true, followersCount: 1 });
    }
    expect((await rowOf(a.id)).followingCount).toBe(1);
    const profile = await body(
      await call(apiUsers.loader, makeRequest(`/api/users/${b.username}`, { cookie: a.cookie }), { username: b.username }),
    );
    expect(profile).toMatchObject({ isFollowing: true, followersCount: 1 });

    for (let i = 0; i < 2; i++) {
      const res = await follow("DELETE", b.username, a.cookie);
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual({ following: false, followersCount: 0 });
    }
    expect((await rowOf(a.id)).followingCount).toBe(0);
  });

  it("401 signed out, 400 oneself, 404 unknown, 403 cross-site, 405 GET", async () => {
    const a = await createMember();
    const b = await createMember();
    expect((await follow("POST", b.username)).status).toBe(401);
    const self = await follow("POST", a.username, a.cookie);
    expect(self.status).toBe(400);
    expect((await body(self)).error).toBe("You can't follow yourself");
    expect((await follow("POST", "nobody_at_all", a.cookie)).status).toBe(404);
    expect((await follow("POST", b.username, a.cookie, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await rowOf(b.id)).followersCount).toBe(0);
    expect(apiFollow.loader().status).toBe(405);
  });
});

describe("GET /api/users/{username}/posts and the Following feed", () => {
  it("lists the member's posts newest first with a Link to the next page", async () => {
    const author = await createMember();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await newPost(author.id, `Post number ${i}`)).id);
    const params = { username: author.username };

    const first = await call(apiUserPosts.loader, makeRequest(`/api/users/${author.username}/posts?limit=2`), params);
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as Array<{ id: number; author: { username: string } }>;
    expect(page1.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    expect(page1.every((p) => p.author.username === author.username)).toBe(true);
    const link = first.headers.get("Link");
    expect(link).toMatch(/rel="next"/);
    const next = new URL(/<([^>]+)>/.exec(link!)![1]!);
    expect(next.pathname).toBe(`/api/users/${author.username}/posts`);
    const second = await call(apiUserPosts.loader, makeRequest(`${next.pathname}${next.search}`), params);
    expect(((await second.json()) as Array<{ id: number }>).map((p) => p.id)).toEqual([ids[0]]);
    expect(second.headers.get("Link")).toBeNull();

    expect((await call(apiUserPosts.loader, makeRequest("/api/users/nobody_at_all/posts"), { username: "nobody_at_all" })).status).toBe(
      404,
    );
  });

  it("listFeed({following: true}) gives the posts of members the actor follows", async () => {
    const reader = await createMember();
    const followed = await createMember();
    const stranger = await createMember();
    const wanted = await newPost(followed.id, "From someone I follow");
    await newPost(stranger.id, "From a stranger");
    await call(apiFollow.action, makeRequest(`/api/users/${followed.username}/follow`, { method: "POST", cookie: reader.cookie }), {
      username: followed.username,
    });
    const feed = await listFeed({ id: reader.id }, { following: true });
    expect(feed.posts.map((p) => p.id)).toEqual([wanted.id]);
  });
});

describe("the profile page", () => {
  const load = (username: string, cookie?: string, search = "") =>
    call(profilePage.loader, makeRequest(`/profile/${username}${search}`, { cookie }), { username });
  const post = (username: string, form: Record<string, string>, cookie?: string, search = "", headers: Record<string, string> = {}) =>
    call(profilePage.action, makeRequest(`/profile/${username}${search}`, { form, cookie, headers }), { username });

  it("shows the profile and the member's posts; 404 'Profile Not Found'; canonical username", async () => {
    const owner = await createMember();
    await newPost(owner.id);
    const res = await load(owner.username);
    expect(res.status).toBe(200);
    const data = await body(res);
    expect(data.profile).toMatchObject({ username: owner.username, postsCount: 1 });
    expect(data.profile).not.toHaveProperty("email");
    expect(data.posts).toHaveLength(1);
    expect(data.isOwner).toBe(false);
    expect((await body(await load(owner.username, owner.cookie))).isOwner).toBe(true);

    const missing = await load("nobody_at_all");
    expect(missing.status).toBe(404);
    expect(await body(missing)).toEqual({ message: "Profile Not Found" });

    const upper = await load(owner.username.toUpperCase());
    expect(upper.status).toBe(302);
    expect(upper.headers.get("Location")).toBe(`/profile/${owner.username}`);
  });

  it("pages the member's posts with an 'Older posts' cursor", async () => {
    const owner = await createMember();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await newPost(owner.id, `Story ${i}`)).id);
    const first = await body(await load(owner.username));
    expect(first.posts).toHaveLength(10);
    expect(first.nextCursor).toBeTruthy();
    const second = await body(await load(owner.username, undefined, `?cursor=${encodeURIComponent(first.nextCursor)}`));
    expect(second.posts.map((p: { id: number }) => p.id)).toEqual([ids[1], ids[0]]);
    expect(second.nextCursor).toBeNull();
  });

  it("follows with a plain form (redirect + toast) and with a script request (JSON)", async () => {
    const a = await createMember();
    const b = await createMember();
    const plain = await post(b.username, { intent: "follow" }, a.cookie);
    expect(plain.status).toBe(302);
    expect(plain.headers.get("Location")).toBe(`/profile/${b.username}`);
    expect(plain.headers.get("Set-Cookie")).toMatch(/__toast=/);
    expect((await rowOf(b.id)).followersCount).toBe(1);

    // A fetcher's request, as the browser labels it (Remix strips ?_data= before the action).
    const script = await post(b.username, { intent: "unfollow" }, a.cookie, "", { "Sec-Fetch-Mode": "cors" });
    expect(script.status).toBe(200);
    expect(await body(script)).toEqual({ intent: "unfollow", following: false, followersCount: 0 });

    // Signed out: off to sign in, nothing changes.
    const anon = await post(b.username, { intent: "follow" });
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/auth\?/);
    expect((await rowOf(b.id)).followersCount).toBe(0);

    const self = await post(a.username, { intent: "follow" }, a.cookie);
    expect(self.status).toBe(400);
    expect(await body(self)).toMatchObject({ error: "You can't follow yourself" });
  });

  it("edits the profile: owner only, SPEC messages, typed values kept", async () => {
    const owner = await createMember();
    const other = await createMember();
    const form = { intent: "update-profile", displayName: "Tall Timber", bio: "Still-hunter", location: "Itasca County, MN" };

    const forbidden = await post(owner.username, form, other.cookie);
    expect(forbidden.status).toBe(403);
    const anon = await post(owner.username, form);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/auth\?/);
    expect((await rowOf(owner.id)).displayName).toBe(owner.displayName);

    const bad = await post(owner.username, { ...form, displayName: "", bio: "x".repeat(501), location: "y".repeat(101) }, owner.cookie);
    expect(bad.status).toBe(400);
    const { result } = await body(bad);
    expect(result.error).toEqual({
      displayName: ["Display name is required"],
      bio: ["Bio too long"],
      location: ["Location too long"],
    });
    expect(result.initialValue).toMatchObject({ bio: "x".repeat(501), location: "y".repeat(101) });
    const long = await body(await post(owner.username, { ...form, displayName: "z".repeat(51) }, owner.cookie));
    expect(long.result.error).toEqual({ displayName: ["Display name too long"] });
    expect((await rowOf(owner.id)).displayName).toBe(owner.displayName);

    const ok = await post(owner.username, form, owner.cookie, "?edit=1");
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe(`/profile/${owner.username}`);
    expect(await rowOf(owner.id)).toMatchObject({ displayName: "Tall Timber", bio: "Still-hunter", location: "Itasca County, MN" });

    // Emptying bio and location clears them.
    await post(owner.username, { intent: "update-profile", displayName: "Tall Timber", bio: "", location: "" }, owner.cookie);
    expect(await rowOf(owner.id)).toMatchObject({ bio: null, location: null });
  });

  it("uploads an avatar (multipart) for the owner only", async () => {
    const owner = await createMember();
    const other = await createMember();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#6b4f33" } })
      .png()
      .toBuffer();
    const upload = (username: string, cookie: string, file: Blob, name = "me.png") => {
      const fd = new FormData();
      fd.set("returnTo", `/profile/${username}?edit=1`);
      fd.set("avatar", file, name);
      return call(
        profilePage.action,
        new Request(`http://localhost:3000/profile/${username}`, {
          method: "POST",
          body: fd,
          headers: { Origin: "http://localhost:3000", Cookie: cookie },
        }),
        { username },
      );
    };

    const theirs = await upload(owner.username, other.cookie, new Blob([png], { type: "image/png" }));
    expect(theirs.status).toBe(403);
    expect(await db.select().from(media).where(eq(media.ownerId, other.id))).toHaveLength(0);

    const ok = await upload(owner.username, owner.cookie, new Blob([png], { type: "image/png" }));
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe(`/profile/${owner.username}?edit=1`);
    const avatar = (await rowOf(owner.id)).avatar;
    expect(avatar).toBeTruthy();
    expect(first(await db.select().from(media).where(eq(media.url, avatar!)))).toMatchObject({ ownerId: owner.id, kind: "image" });

    // Not an image: refused with a toast, the avatar stays.
    const text = await upload(owner.username, owner.cookie, new Blob(["just some text, not a picture"], { type: "image/png" }), "fake.png");
    expect(text.status).toBe(302);
    expect(text.headers.get("Set-Cookie")).toMatch(/__toast=/);
    expect((await rowOf(owner.id)).avatar).toBe(avatar);
  });
});

describe("followers and following pages", () => {
  it("list members with pagination; 404 for an unknown member", async () => {
    const star = await createMember();
    const fan = await createMember();
    await call(apiFollow.action, makeRequest(`/api/users/${star.username}/follow`, { method: "POST", cookie: fan.cookie }), {
      username: star.username,
    });

    const followers = await body(
      await call(followersPage.loader, makeRequest(`/profile/${star.username}/followers`), { username: star.username }),
    );
    expect(followers.users.map((u: { username: string }) => u.username)).toEqual([fan.username]);
    expect(followers.users[0]).not.toHaveProperty("email");
    const following = await body(
      await call(followingPage.loader, makeRequest(`/profile/${fan.username}/following`), { username: fan.username }),
    );
    expect(following.users.map((u: { username: string }) => u.username)).toEqual([star.username]);

    const missing = await call(followersPage.loader, makeRequest("/profile/nobody_at_all/followers"), { username: "nobody_at_all" });
    expect(missing.status).toBe(404);
  });
});

describe("the settings page", () => {
  const post = (form: Record<string, string>, cookie?: string) => call(settingsPage.action, makeRequest("/settings", { form, cookie }));

  it("says Access Denied to visitors (401) and shows the member's own settings", async () => {
    const anon = await call(settingsPage.loader, makeRequest("/settings"));
    expect(anon.status).toBe(401);
    expect(await body(anon)).toEqual({ user: null, tab: "profile" });
    const owner = await createMember();
    const mine = await body(await call(settingsPage.loader, makeRequest("/settings?tab=security", { cookie: owner.cookie })));
    expect(mine).toMatchObject({ tab: "security", user: { id: owner.id, email: owner.email } });
    expect((await body(await call(settingsPage.loader, makeRequest("/settings?tab=bogus", { cookie: owner.cookie })))).tab).toBe("profile");
  });

  it("updates the profile with a valid, unused email", async () => {
    const owner = await createMember();
    const other = await createMember();
    const form = {
      intent: "update-profile",
      displayName: "New Name",
      email: "fresh@example.com",
      bio: "",
      location: "",
      currentPassword: owner.password,
    };

    const anon = await post(form);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/auth\?/);

    const invalid = await body(await post({ ...form, email: "nope" }, owner.cookie));
    expect(invalid.result.error).toEqual({ email: ["Invalid email address"] });
    const taken = await post({ ...form, email: other.email }, owner.cookie);
    expect(taken.status).toBe(409);
    const takenBody = await body(taken);
    expect(takenBody.result.error).toEqual({ email: ["Email is already registered"] });
    expect(takenBody.result.initialValue).toMatchObject({ displayName: "New Name", email: other.email });
    expect(await rowOf(owner.id)).toMatchObject({ email: owner.email, displayName: owner.displayName });

    const ok = await post(form, owner.cookie);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/settings?tab=profile");
    expect(await rowOf(owner.id)).toMatchObject({ email: "fresh@example.com", displayName: "New Name" });
  });

  it("a new email needs the current password: the message is on its field, what was typed stays, the password is not sent back", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const form = {
      intent: "update-profile",
      displayName: "Typed Name",
      email: "typed@example.com",
      bio: "Typed bio",
      location: "Typed town",
    };

    const missing = await post({ ...form, currentPassword: "" }, owner.cookie);
    expect(missing.status).toBe(400);
    const missingResult = (await body(missing)).result;
    expect(missingResult.error).toEqual({ currentPassword: ["Enter your current password to change your email"] });
    expect(missingResult.initialValue).toMatchObject({
      displayName: "Typed Name",
      email: "typed@example.com",
      bio: "Typed bio",
      location: "Typed town",
    });

    const wrong = await post({ ...form, currentPassword: "guessed1" }, owner.cookie);
    expect(wrong.status).toBe(400);
    const wrongResult = (await body(wrong)).result;
    expect(wrongResult.error).toEqual({ currentPassword: ["Current password is incorrect"] });
    expect(wrongResult.initialValue).toMatchObject({ displayName: "Typed Name", email: "typed@example.com" });
    expect(JSON.stringify(wrongResult)).not.toContain("guessed1");
    expect(await rowOf(owner.id)).toMatchObject({ email: owner.email, displayName: owner.displayName, bio: null });

    // The same email: no password needed.
    const same = await post({ ...form, email: owner.email }, owner.cookie);
    expect(same.status).toBe(302);
    expect(await rowOf(owner.id)).toMatchObject({ email: owner.email, displayName: "Typed Name", bio: "Typed bio" });

    const ok = await post({ ...form, currentPassword: "oldpass1" }, owner.cookie);
    expect(ok.status).toBe(302);
    expect((await rowOf(owner.id)).email).toBe("typed@example.com");
  });

  it("changes the password: messages on the fields, other sessions end, this one stays", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const other = owner.cookie;
    const form = { intent: "change-password", currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass1" };

    const mismatch = await post({ ...form, confirmPassword: "newpass2" }, owner.cookie);
    expect(mismatch.status).toBe(400);
    const mismatchResult = (await body(mismatch)).result;
    expect(mismatchResult.error).toEqual({ confirmPassword: ["Passwords don't match"] });
    // Passwords are never sent back into the page.
    expect(JSON.stringify(mismatchResult.initialValue ?? {})).not.toMatch(/oldpass1|newpass/);

    const missing = await body(
      await post({ intent: "change-password", currentPassword: "", newPassword: "", confirmPassword: "" }, owner.cookie),
    );
    expect(missing.result.error).toEqual({
      currentPassword: ["Current password is required"],
      newPassword: ["Password must be at least 6 characters"],
      confirmPassword: ["Please confirm your password"],
    });

    const wrong = await post({ ...form, currentPassword: "guessing" }, owner.cookie);
    expect(wrong.status).toBe(400);
    expect((await body(wrong)).result.error).toEqual({ currentPassword: ["Current password is incorrect"] });
    expect(await sessionCountOf(owner.id)).toBe(1);

    const ok = await post(form, owner.cookie);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/settings?tab=security");
    const fresh = cookiesFrom(ok);
    expect(fresh).toMatch(/__session=/);
    expect((await call(apiUser.loader, makeRequest("/api/auth/user", { cookie: other }))).status).toBe(401);
    expect((await call(apiUser.loader, makeRequest("/api/auth/user", { cookie: fresh }))).status).toBe(200);
  });
});
