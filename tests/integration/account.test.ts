import { describe, expect, it } from "vitest";
import { createPost } from "~/models/posts/post.server";
import { loader as userApi } from "~/routes/api.auth.user";
import { action as accountApi, loader as accountGet } from "~/routes/api.auth.account";
import { action as registerApi } from "~/routes/api.auth.register";
import * as authPage from "~/routes/auth/route";
import { loader as exportApi } from "~/routes/api.auth.export";
import { loader as profileLoader } from "~/routes/profile.$username/route";
import * as settingsPage from "~/routes/settings/route";
import { WRONG_PASSWORD } from "~/models/members/account.server";
import { postInput } from "../fixtures/posts";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * A member's own data over HTTP (CONTRACT.md §6): GET /api/auth/export, DELETE /api/auth/account and
 * Settings › Privacy's two forms.
 */

const signedIn = async (cookie: string) => (await call(userApi, makeRequest("/api/auth/user", { cookie }))).status === 200;
const deleteApi = (cookie: string | null, json: unknown) =>
  call(accountApi, makeRequest("/api/auth/account", { method: "DELETE", json, cookie }));
const privacy = (form: Record<string, string>, cookie: string) =>
  call(settingsPage.action, makeRequest("/settings?tab=privacy", { form, cookie }));

describe("after deletion the username is held (security-2 N18)", () => {
  it("registering it again at once is 409 with a clear message, on the API and the sign-up form", async () => {
    const member = await createMember({ password: "danpass1" });
    expect((await deleteApi(member.cookie, { password: "danpass1" })).status).toBe(204);
    const newcomer = { username: member.username, displayName: "Someone Else", email: `else-${member.email}`, password: "secret123" };
    const api = await call(registerApi, makeRequest("/api/auth/register", { json: newcomer }));
    expect(api.status).toBe(409);
    expect(((await api.json()) as { fieldErrors: unknown }).fieldErrors).toEqual({
      username: ["That username was recently used; choose another."],
    });
    const page = await call(authPage.action, makeRequest("/auth?mode=register", { form: { intent: "register", ...newcomer } }));
    expect(page.status).toBe(409);
    expect(JSON.stringify(await page.json())).toContain("That username was recently used; choose another.");
    expect((await call(profileLoader, makeRequest(`/profile/${member.username}`), { username: member.username })).status).toBe(404);
  });
});

describe("GET /api/auth/export", () => {
  it("is the member's data as a JSON attachment that no cache keeps", async () => {
    const member = await createMember();
    await createPost(member, postInput({ title: "Exported post" }));
    const res = await call(exportApi, makeRequest("/api/auth/export", { cookie: member.cookie }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.headers.get("Content-Disposition")).toMatch(
      new RegExp(`^attachment; filename="whitetail-pulse-${member.username}-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
    );
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const data = (await res.json()) as { profile: { email: string }; posts: { title: string }[] };
    expect(data.profile.email).toBe(member.email);
    expect(data.posts.map((p) => p.title)).toEqual(["Exported post"]);
  });

  it("is 401 for a visitor", async () => {
    const res = await call(exportApi, makeRequest("/api/auth/export"));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
  });
});

describe("DELETE /api/auth/account", () => {
  it("is 400 with fieldErrors.password for a wrong password and keeps the account", async () => {
    const member = await createMember();
    const res = await deleteApi(member.cookie, { password: "not-mine" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ fieldErrors: { password: [WRONG_PASSWORD] } });
    expect(await signedIn(member.cookie)).toBe(true);
    const missing = await deleteApi(member.cookie, {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ fieldErrors: { password: ["Password is required"] } });
  });

  it("is 401 for a visitor and 405 for GET", async () => {
    const member = await createMember();
    expect((await deleteApi(null, { password: member.password })).status).toBe(401);
    expect((await call(accountGet, makeRequest("/api/auth/account"))).status).toBe(405);
  });

  it("is 204: the account is gone, every session ended, the browser's cache cleared", async () => {
    const member = await createMember();
    const other = await createMember();
    const res = await deleteApi(member.cookie, { password: member.password });
    expect(res.status).toBe(204);
    expect(res.headers.get("Clear-Site-Data")).toBe('"cache"');
    expect(res.headers.getSetCookie().join("\n")).toMatch(/__session=;/);
    expect(await signedIn(member.cookie)).toBe(false);
    const profile = await call(profileLoader, makeRequest(`/profile/${member.username}`, { cookie: other.cookie }), {
      username: member.username,
    });
    expect(profile.status).toBe(404);
  });
});

describe("Settings › Privacy", () => {
  it("lists the clubs the member owns with their fate", async () => {
    const member = await createMember();
    const res = await call(settingsPage.loader, makeRequest("/settings?tab=privacy", { cookie: member.cookie }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ tab: "privacy", ownedClubs: [] });
  });

  it("keeps the account on a wrong password, with the message on the password field", async () => {
    const member = await createMember();
    const res = await privacy({ intent: "delete-account", password: "wrong" }, member.cookie);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { intent: string; result: { error: Record<string, string[]> } };
    expect(body.intent).toBe("delete-account");
    expect(body.result.error.password).toEqual([WRONG_PASSWORD]);
    expect(await signedIn(member.cookie)).toBe(true);
  });

  it("deletes the account with the right password and goes home signed out, with a toast", async () => {
    const member = await createMember();
    const res = await privacy({ intent: "delete-account", password: member.password }, member.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(res.headers.get("Clear-Site-Data")).toBe('"cache"');
    const cookies = res.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/__session=;/);
    expect(cookies).toMatch(/__toast=/);
    expect(await signedIn(member.cookie)).toBe(false);
  });
});
