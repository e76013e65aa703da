import { describe, expect, it } from "vitest";
import * as authPage from "~/routes/auth/route";
import { action as registerApi } from "~/routes/api.auth.register";
import * as clubsRoute from "~/routes/api.clubs";
import * as postsRoute from "~/routes/api.posts";
import * as commentsRoute from "~/routes/api.posts.$id.comments";
import * as userRoute from "~/routes/api.users.$username";
import * as postPage from "~/routes/post.$id/route";
import { UNSTORABLE_TEXT } from "~/schemas/text";
import { eq } from "drizzle-orm";
import { clubs } from "#db/schema";
import { databaseEngine, db, queryRow, queryRows } from "~/utils/db.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import { count } from "../fixtures/posts";

/**
 * Security review L5 through the doors members use (/api/* and the HTML forms): a NUL byte or a
 * lone surrogate is refused on its field and changes nothing; bidi controls and zero-width
 * characters never reach a stored name; whatever is stored is valid UTF-8.
 */

const json = (r: Response) => r.json() as Promise<Record<string, any>>;
const RLO = "\u202e";
const LRO = "\u202d";
const post = { title: "Rub lines", content: "Rubs in late October tell you a lot.", type: "article" };

function newcomer(overrides: Record<string, unknown> = {}) {
  const username = `text_${Math.random().toString(36).slice(2, 9)}`;
  return { username, displayName: "New Hunter", email: `${username}@example.com`, password: "secret123", ...overrides };
}

const storedDisplayName = async (username: string) =>
  (await queryRow<{ name: string }>("SELECT display_name AS name FROM users WHERE username = ?", [username]))!.name;

describe("NUL bytes and lone surrogates are refused", () => {
  it("POST /api/posts with a NUL in the title: 400 on the title, no post", async () => {
    const alice = await createMember();
    const before = await count("SELECT count(*) AS n FROM posts");
    const res = await call(
      postsRoute.action,
      makeRequest("/api/posts", { json: { ...post, title: "Rub\u0000lines" }, cookie: alice.cookie }),
    );
    expect(res.status).toBe(400);
    expect((await json(res)).fieldErrors).toEqual({ title: [UNSTORABLE_TEXT] });
    expect(await count("SELECT count(*) AS n FROM posts")).toBe(before);
  });

  it("a lone surrogate in JSON (\\ud800) is refused, in a post's content and in a comment", async () => {
    const alice = await createMember();
    const raw = JSON.stringify({ ...post, content: "Rubs in late October ~" }).replace("~", "\\ud800");
    let res = await call(postsRoute.action, makeRequest("/api/posts", { json: raw, cookie: alice.cookie }));
    expect(res.status).toBe(400);
    expect((await json(res)).fieldErrors).toEqual({ content: [UNSTORABLE_TEXT] });

    res = await call(postsRoute.action, makeRequest("/api/posts", { json: post, cookie: alice.cookie }));
    const { id } = await json(res);
    res = await call(
      commentsRoute.action,
      makeRequest(`/api/posts/${id}/comments`, { json: '{"content":"half an emoji \\udc00"}', cookie: alice.cookie }),
      { id: String(id) },
    );
    expect(res.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM comments WHERE post_id = ?", id)).toBe(0);
  });

  it("a comment of only a NUL through the post page's form: 400 with the message, nothing stored", async () => {
    const alice = await createMember();
    const { id } = await json(await call(postsRoute.action, makeRequest("/api/posts", { json: post, cookie: alice.cookie })));
    const res = await call(
      postPage.action,
      makeRequest(`/post/${id}`, {
        form: { intent: "comment", content: "\u0000" },
        cookie: alice.cookie,
        headers: { Accept: "application/json" },
      }),
      { id: String(id) },
    );
    expect(res.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM comments WHERE post_id = ?", id)).toBe(0);
  });
});

describe("names lose bidi controls and zero-width characters", () => {
  it("POST /api/auth/register with a display name full of bidi overrides stores it clean", async () => {
    const body = newcomer({ displayName: `${RLO}${LRO}\u2066Admin\u2069\u200b\u202c`, location: `\ufeffMon\u200dtana` });
    const res = await call(registerApi, makeRequest("/api/auth/register", { json: body }));
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ displayName: "Admin", location: "Montana" });
    expect(await storedDisplayName(body.username)).toBe("Admin");
  });

  it("the sign-up form does the same, and a name of only invisible characters is refused", async () => {
    const body = newcomer({ displayName: `Jo${RLO} Hunter\u200b` });
    const ok = await call(authPage.action, makeRequest("/auth", { form: { intent: "register", ...body } }));
    expect(ok.status).toBe(302);
    expect(await storedDisplayName(body.username)).toBe("Jo Hunter");

    const invisible = newcomer({ displayName: `${RLO}\u200b\u200c${LRO}` });
    const bad = await call(authPage.action, makeRequest("/auth", { form: { intent: "register", ...invisible } }));
    expect(bad.status).toBe(400);
    expect((await json(bad)).result.error.displayName).toContain("Display name must be at least 2 characters");
    expect(await count("SELECT count(*) AS n FROM users WHERE username = ?", invisible.username)).toBe(0);
  });

  it("a profile edit and a club's name, location and tags are stored clean", async () => {
    const alice = await createMember();
    let res = await call(
      userRoute.action,
      makeRequest(`/api/users/${alice.username}`, { method: "PATCH", json: { displayName: `\u2067Alice${RLO}` }, cookie: alice.cookie }),
      { username: alice.username },
    );
    expect(res.status).toBe(200);
    expect(await storedDisplayName(alice.username)).toBe("Alice");

    res = await call(
      clubsRoute.action,
      makeRequest("/api/clubs", {
        json: { name: `${RLO}Elk Camp\u200b`, location: "\u2066Idaho", tags: ["\u200bbugle", "\u200d"] },
        cookie: alice.cookie,
      }),
    );
    expect(res.status).toBe(201);
    const club = await json(res);
    const [row] = await db
      .select({ name: clubs.name, location: clubs.location, tags: clubs.tags })
      .from(clubs)
      .where(eq(clubs.id, club.id as number));
    expect(row).toEqual({ name: "Elk Camp", location: "Idaho", tags: ["bugle"] });
  });
});

describe("stored text", () => {
  it("is valid UTF-8 with no NUL in every text column written above", async () => {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const columns: Record<string, string[]> = {
      users: ["display_name", "bio", "location"],
      posts: ["title", "content", "tags"],
      comments: ["content"],
      clubs: ["name", "description", "location", "tags", "rules"],
    };
    for (const [table, names] of Object.entries(columns)) {
      for (const name of names) {
        // The stored bytes: SQLite's blob of the value; PostgreSQL's text (JSON columns' text) in UTF-8.
        const bytes = databaseEngine() === "postgres" ? `convert_to(CAST(${name} AS TEXT), 'UTF8')` : `CAST(${name} AS BLOB)`;
        const rows = await queryRows<{ raw: Buffer }>(`SELECT ${bytes} AS raw FROM ${table} WHERE ${name} IS NOT NULL`);
        for (const { raw } of rows) {
          expect(raw.includes(0), `${table}.${name}`).toBe(false);
          expect(() => decoder.decode(raw), `${table}.${name}`).not.toThrow();
        }
      }
    }
  });
});
