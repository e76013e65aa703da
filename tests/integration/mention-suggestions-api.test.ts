import { describe, expect, it } from "vitest";
import { MENTION_QUERY_MESSAGES } from "~/schemas/mention";
import { MENTION_SIGN_IN } from "~/models/members/mention-suggestions.server";
import { loader } from "~/routes/api.users";
import { call, createMember, makeRequest } from "../fixtures/members";

/** The @mention suggestions' URL (ux-3 U20): the model's answers as CONTRACT.md §2 shapes them. The rules: mention-suggestions.server.test.ts. */

describe("GET /api/users?mention=", () => {
  it("answers a member with the list, private; a visitor 401 and bad text 400 in CONTRACT.md's error shape", async () => {
    const s = `apiq${Math.random()
      .toString(36)
      .replace(/[^a-z]/g, "")
      .slice(0, 6)}`;
    const viewer = await createMember();
    const target = await createMember({ username: `${s}_api`, displayName: "Api Target" });
    const ok = await call(loader, makeRequest(`/api/users?mention=${s}`, { cookie: viewer.cookie }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Cache-Control")).toMatch(/^private\b/);
    expect(await ok.json()).toEqual([{ username: target.username, displayName: "Api Target", avatar: null }]);

    const visitor = await call(loader, makeRequest(`/api/users?mention=${s}`));
    expect(visitor.status).toBe(401);
    expect(await visitor.json()).toEqual({ error: MENTION_SIGN_IN });

    const bad = await call(loader, makeRequest(`/api/users?mention=${"x".repeat(31)}`, { cookie: viewer.cookie }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: MENTION_QUERY_MESSAGES.tooLong, fieldErrors: { mention: [MENTION_QUERY_MESSAGES.tooLong] } });
    const none = await call(loader, makeRequest(`/api/users`, { cookie: viewer.cookie }));
    expect(none.status).toBe(400);
    expect((await none.json()).error).toBe(MENTION_QUERY_MESSAGES.missing);
  });
});
