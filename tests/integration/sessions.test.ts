import { createCookie } from "react-router";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "#db/schema";
import { SESSION_LIFETIME_MS } from "~/models/members/session.server";
import { loader as rootLoader } from "~/root";
import * as authPage from "~/routes/auth/route";
import { action as loginApi } from "~/routes/api.auth.login";
import { action as logoutApi } from "~/routes/api.auth.logout";
import { action as passwordApi } from "~/routes/api.auth.password";
import { action as registerApi } from "~/routes/api.auth.register";
import { loader as userApi } from "~/routes/api.auth.user";
import { action as logoutPage } from "~/routes/logout/route";
import * as settingsPage from "~/routes/settings/route";
import { db } from "~/utils/db.server";
import { sessionSecret } from "~/utils/env.server";
import { call, cookiesFrom, createMember, makeRequest } from "../fixtures/members";

/**
 * Server-side sessions (CONTRACT.md §6 "Sessions", security review M2, ADR 0017): every sign-in is
 * its own session, logout and password changes end sessions on the server, Settings › Security lists
 * and ends them, and an expired session reads as signed out.
 */

const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const status = async (cookie: string) => (await call(userApi, makeRequest("/api/auth/user", { cookie }))).status;
const sessionCookie = (res: Response) =>
  cookiesFrom(res)
    .split("; ")
    .find((c) => c.startsWith("__session="))!;
const sessionsOf = async (userId: number) => await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(sessions.id);

async function apiSignIn(member: { username: string; password: string }, headers: Record<string, string> = {}) {
  const res = await call(
    loginApi,
    makeRequest("/api/auth/login", { json: { username: member.username, password: member.password }, headers }),
  );
  expect(res.status).toBe(200);
  return sessionCookie(res);
}

async function formSignIn(member: { username: string; password: string }) {
  const form = { intent: "login", username: member.username, password: member.password, redirectTo: "/" };
  const res = await call(authPage.action, makeRequest("/auth", { form }));
  expect(res.status).toBe(302);
  return sessionCookie(res);
}

const settings = (form: Record<string, string>, cookie: string) =>
  call(settingsPage.action, makeRequest("/settings?tab=security", { form, cookie }));

describe("every sign-in is its own session", () => {
  it("gives two sign-ins (JSON and form) different tokens; ending one leaves the other", async () => {
    const member = await createMember();
    const a = await apiSignIn(member);
    const b = await apiSignIn(member);
    const c = await formSignIn(member);
    const d = await formSignIn(member);
    expect(new Set([a, b, c, d, member.cookie]).size).toBe(5);
    for (const cookie of [a, b, c, d]) expect(await status(cookie)).toBe(200);

    await call(logoutApi, makeRequest("/api/auth/logout", { method: "POST", cookie: a }));
    expect(await status(a)).toBe(401);
    for (const cookie of [b, c, d, member.cookie]) expect(await status(cookie)).toBe(200);
  });

  it("signs in a new registration with a session of its own, labelled with its device", async () => {
    const username = `reg_${Math.random().toString(36).slice(2, 9)}`;
    const body = { username, displayName: "New Hunter", email: `${username}@example.com`, password: "secret123" };
    const res = await call(registerApi, makeRequest("/api/auth/register", { json: body, headers: { "User-Agent": ANDROID } }));
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    expect(await status(sessionCookie(res))).toBe(200);
    expect((await sessionsOf(id)).map((s) => s.device)).toEqual(["Chrome on Android"]);
  });
});

describe("logout ends the session on the server", () => {
  it("POST /api/auth/logout: the old cookie is then signed out (401)", async () => {
    const member = await createMember();
    const kept = await apiSignIn(member);
    const res = await call(logoutApi, makeRequest("/api/auth/logout", { method: "POST", cookie: kept }));
    expect(res.status).toBe(204);
    expect(await status(kept)).toBe(401);
    expect(await status(member.cookie)).toBe(200);
  });

  it("POST /logout (the form): the old cookie is then signed out (401)", async () => {
    const member = await createMember();
    const kept = await formSignIn(member);
    const res = await call(logoutPage, makeRequest("/logout", { method: "POST", cookie: kept }));
    expect(res.status).toBe(302);
    expect(await status(kept)).toBe(401);
    expect(await status(member.cookie)).toBe(200);
  });
});

describe("a password change ends the member's other sessions", () => {
  const change = { currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass1" };

  it("JSON: the other session is 401, this device stays signed in (200)", async () => {
    const member = await createMember({ password: "oldpass1" });
    const phone = await apiSignIn(member);
    const res = await call(passwordApi, makeRequest("/api/auth/password", { method: "PUT", json: change, cookie: member.cookie }));
    expect(res.status).toBe(204);
    expect(await status(phone)).toBe(401);
    expect(await status(sessionCookie(res))).toBe(200);
    expect(await sessionsOf(member.id)).toHaveLength(1);
  });

  it("form: the other session is 401, this device stays signed in (200)", async () => {
    const member = await createMember({ password: "oldpass1" });
    const phone = await formSignIn(member);
    const res = await settings({ intent: "change-password", ...change }, member.cookie);
    expect(res.status).toBe(302);
    expect(await status(phone)).toBe(401);
    expect(await status(sessionCookie(res))).toBe(200);
  });
});

describe("Settings › Security", () => {
  it("lists the member's sessions with this device marked, privately and never cached", async () => {
    const member = await createMember();
    const phone = await apiSignIn(member, { "User-Agent": ANDROID });
    const res = await call(settingsPage.loader, makeRequest("/settings?tab=security", { cookie: phone }));
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const data = (await res.json()) as { sessions: { device: string; current: boolean; lastSeenAt: string }[] };
    expect(data.sessions).toHaveLength(2);
    expect(data.sessions.find((s) => s.current)).toMatchObject({ device: "Chrome on Android" });
    expect(data.sessions.filter((s) => !s.current)).toHaveLength(1);
    expect(JSON.stringify(data)).not.toMatch(/token/i);
  });

  it("signs out one other device (POST, redirect, GET) and leaves this one", async () => {
    const member = await createMember();
    const phone = await apiSignIn(member);
    const laptop = await apiSignIn(member);
    const phoneId = (await sessionsOf(member.id)).at(-2)!.id;
    const res = await settings({ intent: "end-session", sessionId: String(phoneId) }, laptop);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/settings?tab=security");
    expect(await status(phone)).toBe(401);
    expect(await status(laptop)).toBe(200);
    expect(await status(member.cookie)).toBe(200);
  });

  it("signs out all other devices and keeps this one", async () => {
    const member = await createMember();
    const phone = await apiSignIn(member);
    const laptop = await apiSignIn(member);
    const res = await settings({ intent: "end-other-sessions" }, laptop);
    expect(res.status).toBe(302);
    expect(await status(phone)).toBe(401);
    expect(await status(member.cookie)).toBe(401);
    expect(await status(laptop)).toBe(200);
  });

  it("refuses another member's session (404) and bad ids (404), changing nothing", async () => {
    const member = await createMember();
    const stranger = await createMember();
    const theirId = (await sessionsOf(stranger.id))[0]!.id;
    const res = await settings({ intent: "end-session", sessionId: String(theirId) }, member.cookie);
    expect(res.status).toBe(404);
    expect(await status(stranger.cookie)).toBe(200);
    for (const sessionId of ["", "abc", "-1", "1e3"]) {
      expect((await settings({ intent: "end-session", sessionId }, member.cookie)).status).toBe(404);
    }
    expect(await status(member.cookie)).toBe(200);
    // Signed out: nothing ends (a redirect to sign in).
    const anon = await call(settingsPage.action, makeRequest("/settings?tab=security", { form: { intent: "end-other-sessions" } }));
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/auth/);
    expect(await status(stranger.cookie)).toBe(200);
  });
});

describe("expiry and old cookies", () => {
  it("reads an expired session as signed out, and the page tells the browser to drop the cookie", async () => {
    const member = await createMember();
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, member.id));
    expect(await status(member.cookie)).toBe(401);
    const root = await call(rootLoader, makeRequest("/", { cookie: member.cookie }));
    expect(((await root.json()) as { user: unknown }).user).toBeNull();
    expect(root.headers.get("Set-Cookie")).toMatch(/__session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
  });

  it("slides the expiry on with use (written at most every few minutes)", async () => {
    const member = await createMember();
    const longAgo = Date.now() - 10 * 24 * 60 * 60 * 1000;
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(longAgo), expiresAt: new Date(longAgo + SESSION_LIFETIME_MS) })
      .where(eq(sessions.userId, member.id));
    const before = Date.now();
    expect(await status(member.cookie)).toBe(200);
    const [row] = await sessionsOf(member.id);
    expect(row!.lastSeenAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(row!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + SESSION_LIFETIME_MS);
    // A second use right away reads without writing.
    expect(await status(member.cookie)).toBe(200);
    expect((await sessionsOf(member.id))[0]!.lastSeenAt.getTime()).toBe(row!.lastSeenAt.getTime());
  });

  it("reads an old {userId, v} cookie, correctly signed, as signed out", async () => {
    const member = await createMember();
    const old = createCookie("__session", { secrets: [sessionSecret], path: "/" });
    const cookie = (await old.serialize({ userId: member.id, v: 1 })).split(";")[0]!;
    expect(await status(cookie)).toBe(401);
    const root = await call(rootLoader, makeRequest("/", { cookie }));
    expect(((await root.json()) as { user: unknown }).user).toBeNull();
  });
});
