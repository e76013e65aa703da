import { describe, expect, it } from "vitest";
import * as authPage from "~/routes/auth/route";
import { action as loginApi } from "~/routes/api.auth.login";
import { action as logoutApi } from "~/routes/api.auth.logout";
import { action as registerApi, loader as registerGet } from "~/routes/api.auth.register";
import { loader as userApi } from "~/routes/api.auth.user";
import { action as logoutPage, loader as logoutGet } from "~/routes/logout/route";
import { loader as rootLoader } from "~/root";
import { db, first } from "~/utils/db.server";
import { sessions, users } from "#db/schema";
import { eq } from "drizzle-orm";
import { call, cookiesFrom, createMember, makeRequest } from "../fixtures/members";

const json = (r: Response) => r.json() as Promise<Record<string, any>>;

function newcomer(overrides: Record<string, unknown> = {}) {
  const username = `hunter_${Math.random().toString(36).slice(2, 9)}`;
  return { username, displayName: "New Hunter", email: `${username}@example.com`, password: "secret123", ...overrides };
}

describe("POST /api/auth/register", () => {
  it("creates the member, signs them in and never returns the hash", async () => {
    const body = newcomer({ location: "Pike County, IL", bio: "Bowhunter" });
    const res = await call(registerApi, makeRequest("/api/auth/register", { json: body }));
    expect(res.status).toBe(201);
    const user = await json(res);
    expect(user).toMatchObject({
      username: body.username,
      displayName: "New Hunter",
      email: body.email,
      location: "Pike County, IL",
      bio: "Bowhunter",
      postsCount: 0,
    });
    expect(JSON.stringify(user)).not.toMatch(/hash|scrypt|sessionVersion/i);
    const cookie = cookiesFrom(res);
    expect(res.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    expect(res.headers.get("Set-Cookie")).toMatch(/SameSite=Lax/i);
    const me = await call(userApi, makeRequest("/api/auth/user", { cookie }));
    expect(me.status).toBe(200);
    expect((await json(me)).username).toBe(body.username);
  });

  it("stores a slow salted hash, not the password", async () => {
    const body = newcomer();
    await call(registerApi, makeRequest("/api/auth/register", { json: body }));
    const row = first(await db.select().from(users).where(eq(users.username, body.username)))!;
    expect(row.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.passwordHash).not.toContain(body.password);
  });

  it.each([
    [{ username: "ab" }, "username", "Username must be at least 3 characters"],
    [{ username: "a".repeat(21) }, "username", "Username too long"],
    [{ email: "not-an-email" }, "email", "Invalid email address"],
    [{ displayName: "J" }, "displayName", "Display name must be at least 2 characters"],
    [{ displayName: "J".repeat(51) }, "displayName", "Display name too long"],
    [{ password: "12345" }, "password", "Password must be at least 6 characters"],
    [{ bio: "b".repeat(501) }, "bio", "Bio too long"],
    [{ location: "l".repeat(101) }, "location", "Location too long"],
    [{ username: 42 }, "username", "Username is required"],
  ])("refuses %j with 400 and SPEC's message", async (override, field, message) => {
    const body = newcomer(override);
    const before = await db.$count(users);
    const res = await call(registerApi, makeRequest("/api/auth/register", { json: body }));
    expect(res.status).toBe(400);
    const answer = await json(res);
    expect(answer.error).toEqual(expect.any(String));
    expect(answer.fieldErrors[field]).toContain(message);
    expect(await db.$count(users)).toBe(before);
  });

  it("answers 409 for a taken username (any case) or email, and creates nothing", async () => {
    const first = newcomer();
    await call(registerApi, makeRequest("/api/auth/register", { json: first }));
    const before = await db.$count(users);
    const sameName = await call(
      registerApi,
      makeRequest("/api/auth/register", { json: newcomer({ username: first.username.toUpperCase() }) }),
    );
    expect(sameName.status).toBe(409);
    expect((await json(sameName)).fieldErrors.username).toEqual(["Username is already taken"]);
    const sameEmail = await call(registerApi, makeRequest("/api/auth/register", { json: newcomer({ email: first.email.toUpperCase() }) }));
    expect(sameEmail.status).toBe(409);
    expect((await json(sameEmail)).fieldErrors.email).toEqual(["Email is already registered"]);
    expect(await db.$count(users)).toBe(before);
  });

  it("answers malformed JSON, a non-object, a wrong content type and a huge body clearly", async () => {
    const bad = await call(registerApi, makeRequest("/api/auth/register", { json: "{not json" }));
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toBe("The request body is not valid JSON");
    const array = await call(registerApi, makeRequest("/api/auth/register", { json: "[1,2]" }));
    expect(array.status).toBe(400);
    const form = await call(registerApi, makeRequest("/api/auth/register", { form: newcomer() }));
    expect(form.status).toBe(415);
    const huge = await call(registerApi, makeRequest("/api/auth/register", { json: newcomer({ bio: "x".repeat(300_000) }) }));
    expect(huge.status).toBe(413);
  });

  it("ignores unknown fields instead of storing them", async () => {
    const body = newcomer({ isAdmin: true, postsCount: 999, id: 1 });
    const res = await call(registerApi, makeRequest("/api/auth/register", { json: body }));
    expect(res.status).toBe(201);
    const user = await json(res);
    expect(user.postsCount).toBe(0);
    expect(user.isAdmin).toBeUndefined();
    expect(user.id).not.toBe(1);
  });

  it("refuses GET with 405 and a cross-site POST with 403", async () => {
    expect((await call(registerGet, makeRequest("/api/auth/register"))).status).toBe(405);
    const before = await db.$count(users);
    const res = await call(
      registerApi,
      makeRequest("/api/auth/register", { json: newcomer(), headers: { Origin: "https://evil.example" } }),
    );
    expect(res.status).toBe(403);
    expect(await db.$count(users)).toBe(before);
  });
});

describe("POST /api/auth/login and logout", () => {
  it("signs in with the right password and gives the same 401 text for a wrong password or unknown name", async () => {
    const member = await createMember();
    const ok = await call(loginApi, makeRequest("/api/auth/login", { json: { username: member.username, password: member.password } }));
    expect(ok.status).toBe(200);
    expect((await json(ok)).id).toBe(member.id);
    expect(ok.headers.get("Set-Cookie")).toContain("__session=");

    const wrong = await call(loginApi, makeRequest("/api/auth/login", { json: { username: member.username, password: "wrong-password" } }));
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toEqual({ error: "Invalid username or password" });
    const unknown = await call(loginApi, makeRequest("/api/auth/login", { json: { username: "nobody_here", password: "whatever1" } }));
    expect(unknown.status).toBe(401);
    expect(await json(unknown)).toEqual({ error: "Invalid username or password" });
  });

  it("validates with SPEC's messages", async () => {
    const res = await call(loginApi, makeRequest("/api/auth/login", { json: { username: "", password: "123" } }));
    expect(res.status).toBe(400);
    const answer = await json(res);
    expect(answer.fieldErrors.username).toContain("Username is required");
    expect(answer.fieldErrors.password).toContain("Password must be at least 6 characters");
  });

  it("logs out with 204 and a cleared cookie", async () => {
    const member = await createMember();
    const res = await call(logoutApi, makeRequest("/api/auth/logout", { method: "POST", cookie: member.cookie }));
    expect(res.status).toBe(204);
    expect(res.headers.get("Set-Cookie")).toMatch(/__session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
  });
});

describe("sessions", () => {
  it("treats a tampered cookie as signed out", async () => {
    const member = await createMember();
    const [name, value] = member.cookie.split("=");
    const payload = Buffer.from(JSON.stringify({ userId: member.id + 1, v: 1 })).toString("base64");
    const forged = `${name}=${payload}.${value!.split(".")[1]}`;
    expect((await call(userApi, makeRequest("/api/auth/user", { cookie: forged }))).status).toBe(401);
    expect((await call(userApi, makeRequest("/api/auth/user", { cookie: "__session=garbage" }))).status).toBe(401);
    expect((await call(userApi, makeRequest("/api/auth/user", { cookie: member.cookie }))).status).toBe(200);
  });

  it("ends a session whose row is gone (password change)", async () => {
    const member = await createMember();
    await db.delete(sessions).where(eq(sessions.userId, member.id));
    expect((await call(userApi, makeRequest("/api/auth/user", { cookie: member.cookie }))).status).toBe(401);
  });

  it("GET /api/auth/user returns the member's own email and nothing secret", async () => {
    const member = await createMember();
    const user = await json(await call(userApi, makeRequest("/api/auth/user", { cookie: member.cookie })));
    expect(user.email).toBe(member.email);
    expect(Object.keys(user).sort()).toEqual(
      [
        "avatar",
        "bio",
        "createdAt",
        "displayName",
        "email",
        "followersCount",
        "followingCount",
        "id",
        "location",
        "postsCount",
        "role",
        "username",
      ].sort(),
    );
  });
});

describe("the /auth page", () => {
  it("sends a signed-in member home (or to redirectTo)", async () => {
    const member = await createMember();
    const res = await call(authPage.loader, makeRequest("/auth?redirectTo=/settings", { cookie: member.cookie }));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/settings");
  });

  it("signs in with the form and brings the member back to redirectTo with a toast", async () => {
    const member = await createMember();
    const res = await call(
      authPage.action,
      makeRequest("/auth", { form: { intent: "login", username: member.username, password: member.password, redirectTo: "/clubs" } }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/clubs");
    const cookies = cookiesFrom(res);
    expect(cookies).toContain("__session=");
    expect(cookies).toContain("__toast=");
    const root = await json(await call(rootLoader, makeRequest("/clubs", { cookie: cookies })));
    expect(root.user.username).toBe(member.username);
    expect(root.toast).toMatchObject({ title: "Welcome back!", description: "You've been successfully logged in." });
  });

  it("never redirects off-site", async () => {
    const member = await createMember();
    const res = await call(
      authPage.action,
      makeRequest("/auth", {
        form: { intent: "login", username: member.username, password: member.password, redirectTo: "//evil.example/x" },
      }),
    );
    expect(res.headers.get("Location")).toBe("/");
  });

  it("keeps what was typed (but not the password) when sign-in fails", async () => {
    const member = await createMember();
    const res = await call(
      authPage.action,
      makeRequest("/auth", { form: { intent: "login", username: member.username, password: "wrong-one" } }),
    );
    expect(res.status).toBe(401);
    const data = await json(res);
    expect(data.intent).toBe("login");
    expect(data.result.error[""]).toEqual(["Invalid username or password"]);
    expect(data.result.initialValue.username).toBe(member.username);
    expect(data.result.initialValue.password).toBeUndefined();
  });

  it("registers with the form, with SPEC's messages on bad input", async () => {
    const bad = await call(
      authPage.action,
      makeRequest("/auth", { form: { intent: "register", username: "ab", displayName: "Jo Hunter", email: "bad", password: "123" } }),
    );
    expect(bad.status).toBe(400);
    const data = await json(bad);
    expect(data.result.error.username).toContain("Username must be at least 3 characters");
    expect(data.result.error.email).toContain("Invalid email address");
    expect(data.result.initialValue.displayName).toBe("Jo Hunter");

    const body = newcomer();
    const ok = await call(authPage.action, makeRequest("/auth", { form: { intent: "register", ...body } }));
    expect(ok.status).toBe(302);
    const root = await json(await call(rootLoader, makeRequest("/", { cookie: cookiesFrom(ok) })));
    expect(root.toast.title).toBe("Welcome to Whitetail Pulse");
    expect(root.toast.description).toBe("Your account has been created successfully.");
  });

  it("refuses a cross-site form post with 403", async () => {
    const res = await call(
      authPage.action,
      makeRequest("/auth", { form: { intent: "register", ...newcomer() }, headers: { Origin: "https://evil.example" } }),
    );
    expect(res.status).toBe(403);
  });
});

describe("logout page", () => {
  it("changes nothing on GET and logs out on POST", async () => {
    const member = await createMember();
    const get = await call(logoutGet, makeRequest("/logout", { cookie: member.cookie }));
    expect(get.headers.get("Set-Cookie")).toBeNull();
    const post = await call(logoutPage, makeRequest("/logout", { method: "POST", cookie: member.cookie }));
    expect(post.status).toBe(302);
    const root = await json(await call(rootLoader, makeRequest("/", { cookie: cookiesFrom(post) })));
    expect(root.user).toBeNull();
    expect(root.toast).toMatchObject({ title: "Logged out", description: "You've been successfully logged out." });
  });
});
