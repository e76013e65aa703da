import { beforeAll, describe, expect, it } from "vitest";
import * as postsApi from "~/routes/api.posts";
import * as postApi from "~/routes/api.posts.$id";
import * as commentsApi from "~/routes/api.posts.$id.comments";
import * as clubPage from "~/routes/clubs.$id/route";
import * as invitesTab from "~/routes/clubs.$id/tabs/invites";
import * as createClubPage from "~/routes/clubs.create/route";
import * as createPage from "~/routes/create";
import * as postPage from "~/routes/post.$id/route";
import { and, eq } from "drizzle-orm";
import { idempotencyKeys } from "#db/schema";
import { db, queryRow } from "~/utils/db.server";
import { call, cookiesFrom, createMember, makeRequest } from "../fixtures/members";
import { newClub } from "../fixtures/clubs";
import { count } from "../fixtures/posts";
import { multipartRequest, png } from "../fixtures/media";

/**
 * Idempotency keys (CONTRACT.md §6, docs/decisions/0030-idempotency-keys.md): a repeat with the same
 * key by the same member within 24 hours changes nothing and gets the first answer, through the
 * JSON API (`Idempotency-Key`) and through every HTML form that creates something (`idempotencyKey`).
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  alice = await createMember({ displayName: "Alice Archer" });
  bob = await createMember({ displayName: "Bob Buck" });
});

let n = 0;
const uniqueKey = () => `key-${Date.now()}-${++n}`;
const posts = async () => count("SELECT count(*) AS n FROM posts");
const keyRows = async (userId: number, key: string) =>
  count("SELECT count(*) AS n FROM idempotency_keys WHERE user_id = ? AND key = ?", userId, key);

const body = { title: "Rub lines", content: "Rubs in late October tell you about travel.", type: "article", tags: ["rut"] };

function apiPost(member: Member, key: string | null, json: unknown = body, path = "/api/posts") {
  const headers: Record<string, string> = key ? { "Idempotency-Key": key } : {};
  return makeRequest(path, { json, cookie: member.cookie, headers });
}

describe("Idempotency-Key on /api/*", () => {
  it("a repeat gets the first answer (status and body) and creates nothing more", async () => {
    const key = uniqueKey();
    const before = await posts();
    const first = await call(postsApi.action, apiPost(alice, key));
    const firstBody = await first.text();
    const again = await call(postsApi.action, apiPost(alice, key));
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(await posts()).toBe(before + 1);
    expect(await keyRows(alice.id, key)).toBe(1);
  });

  it("without a key every call runs", async () => {
    const before = await posts();
    await call(postsApi.action, apiPost(alice, null));
    await call(postsApi.action, apiPost(alice, null));
    expect(await posts()).toBe(before + 2);
  });

  it("the same key from another member is independent", async () => {
    const key = uniqueKey();
    const before = await posts();
    const a = await call(postsApi.action, apiPost(alice, key));
    const b = await call(postsApi.action, apiPost(bob, key));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(((await a.json()) as { id: number }).id).not.toBe(((await b.json()) as { id: number }).id);
    expect(await posts()).toBe(before + 2);
  });

  it("a key older than 24 hours is forgotten: the call runs again", async () => {
    const key = uniqueKey();
    const before = await posts();
    await call(postsApi.action, apiPost(alice, key));
    await db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(and(eq(idempotencyKeys.userId, alice.id), eq(idempotencyKeys.key, key)));
    const again = await call(postsApi.action, apiPost(alice, key));
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await posts()).toBe(before + 2);
    expect(await keyRows(alice.id, key)).toBe(1);
  });

  it("the key reused for another request is refused with 422 {error}, and that request does not run", async () => {
    const key = uniqueKey();
    const first = await call(postsApi.action, apiPost(alice, key));
    const { id } = (await first.json()) as { id: number };
    const comments = await count("SELECT count(*) AS n FROM comments WHERE post_id = ?", id);
    const other = await call(commentsApi.action, apiPost(alice, key, { content: "Nice sit" }, `/api/posts/${id}/comments`), {
      id: String(id),
    });
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({ error: expect.stringMatching(/different request/) });
    expect(await count("SELECT count(*) AS n FROM comments WHERE post_id = ?", id)).toBe(comments);
  });

  it("two identical calls in flight: one runs, the other gets 409", async () => {
    const key = uniqueKey();
    const before = await posts();
    const answers = await Promise.all([call(postsApi.action, apiPost(alice, key)), call(postsApi.action, apiPost(alice, key))]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await answers.find((r) => r.status === 409)!.json()).toEqual({ error: expect.stringMatching(/in progress/) });
    expect(await posts()).toBe(before + 1);
  });

  it("an error answer changes nothing and frees the key for a corrected call", async () => {
    const key = uniqueKey();
    const bad = await call(postsApi.action, apiPost(alice, key, { ...body, title: "" }));
    expect(bad.status).toBe(400);
    expect(await keyRows(alice.id, key)).toBe(0);
    const good = await call(postsApi.action, apiPost(alice, key));
    expect(good.status).toBe(201);
  });

  it("a malformed key is a 400", async () => {
    const res = await call(postsApi.action, apiPost(alice, "has space"));
    expect(res.status).toBe(400);
  });
});

/** A plain form post, as a browser sends it (urlencoded; the post editor's multipart reads the same). */
function formPost(path: string, member: Member, form: Record<string, string>) {
  return makeRequest(path, { form, cookie: member.cookie, headers: { "Sec-Fetch-Mode": "navigate" } });
}

describe("idempotencyKey on the forms that create something", () => {
  it("Create Post: a resend gets the same redirect and toast, and one post", async () => {
    const idempotencyKey = uniqueKey();
    const before = await posts();
    const form = { ...body, tags: "rut", idempotencyKey };
    const first = await call(createPage.action, formPost("/create", alice, form));
    const again = await call(createPage.action, formPost("/create", alice, form));
    expect(first.status).toBe(302);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(cookiesFrom(again)).toMatch(/__toast=/);
    expect(await posts()).toBe(before + 1);
    expect(await keyRows(alice.id, idempotencyKey)).toBe(1);
  });

  it("Create Post: another member's form with the same key posts on its own", async () => {
    const idempotencyKey = uniqueKey();
    const before = await posts();
    const form = { ...body, tags: "", idempotencyKey };
    await call(createPage.action, formPost("/create", alice, form));
    await call(createPage.action, formPost("/create", bob, form));
    expect(await posts()).toBe(before + 2);
  });

  it("a comment resent (plain form and script) is added once", async () => {
    const created = await call(postsApi.action, apiPost(alice, null));
    const { id } = (await created.json()) as { id: number };
    const idempotencyKey = uniqueKey();
    const form = { intent: "comment", content: "Saw two does at first light", idempotencyKey };
    const first = await call(postPage.action, formPost(`/post/${id}`, bob, form), { id: String(id) });
    const again = await call(postPage.action, formPost(`/post/${id}`, bob, form), { id: String(id) });
    expect(again.status).toBe(first.status);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await count("SELECT count(*) AS n FROM comments WHERE post_id = ?", id)).toBe(1);
  });

  it("Create Club: a resend is answered as the first, one club", async () => {
    const idempotencyKey = uniqueKey();
    const clubs = async () => count("SELECT count(*) AS n FROM clubs WHERE creator_id = ?", bob.id);
    const before = await clubs();
    const form = { name: `Ridge Camp ${n}`, description: "Public land bowhunters", isPrivate: "on", idempotencyKey };
    const first = await call(createClubPage.action, formPost("/clubs/create", bob, form));
    const again = await call(createClubPage.action, formPost("/clubs/create", bob, form));
    expect(first.status).toBe(302);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await clubs()).toBe(before + 1);
  });

  it("a join request and an invite, resent, are made once", async () => {
    const club = await newClub(alice, { name: `Private Lease ${n}`, isPrivate: true });
    const joinKey = uniqueKey();
    const join = { intent: "join", message: "Hunted the creek for years", idempotencyKey: joinKey };
    const first = await call(clubPage.action, formPost(`/clubs/${club.id}`, bob, join), { id: String(club.id) });
    const again = await call(clubPage.action, formPost(`/clubs/${club.id}`, bob, join), { id: String(club.id) });
    expect(again.status).toBe(first.status);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await count("SELECT count(*) AS n FROM join_requests WHERE club_id = ?", club.id)).toBe(1);

    const invites = async () => count("SELECT count(*) AS n FROM invites WHERE club_id = ?", club.id);
    const invite = { intent: "invite", idempotencyKey: uniqueKey() };
    const path = `/clubs/${club.id}/invites`;
    const madeFirst = await call(invitesTab.action, formPost(path, alice, invite), { id: String(club.id) });
    const madeAgain = await call(invitesTab.action, formPost(path, alice, invite), { id: String(club.id) });
    expect(madeFirst.status).toBe(302);
    expect(madeAgain.headers.get("Location")).toBe(madeFirst.headers.get("Location"));
    expect(await invites()).toBe(1);
  });
});

/**
 * security-2 N16 and N8 (CONTRACT.md §10, docs/decisions/0055-idempotency-key-covers-the-body-and-stores-little.md): a key
 * reused with a different body is 422 and changes nothing; what a key keeps is capped.
 */
describe("the key's request body, and what a key may keep", () => {
  it("the same key and path with a different JSON body: 422, nothing changes, the first answer stays", async () => {
    const created = await call(postsApi.action, apiPost(alice, null));
    const { id } = (await created.json()) as { id: number };
    const path = `/api/posts/${id}/comments`;
    const comments = async () => count("SELECT count(*) AS n FROM comments WHERE post_id = ?", id);
    const key = uniqueKey();
    const first = await call(commentsApi.action, apiPost(alice, key, { content: "Two does at the creek" }, path), { id: String(id) });
    expect(first.status).toBe(201);
    const other = await call(commentsApi.action, apiPost(alice, key, { content: "Something else entirely" }, path), { id: String(id) });
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({ error: expect.stringMatching(/different request/) });
    expect(await comments()).toBe(1);
    expect(await count("SELECT count(*) AS n FROM comments WHERE post_id = ? AND content = ?", id, "Something else entirely")).toBe(0);
    const same = await call(commentsApi.action, apiPost(alice, key, { content: "Two does at the creek" }, path), { id: String(id) });
    expect(same.status).toBe(201);
    expect(same.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await comments()).toBe(1);
  });

  it("a form resent with different fields: 422 with a message, one comment", async () => {
    const created = await call(postsApi.action, apiPost(alice, null));
    const { id } = (await created.json()) as { id: number };
    const idempotencyKey = uniqueKey();
    const first = { intent: "comment", content: "Buck on camera at dusk", idempotencyKey };
    await call(postPage.action, formPost(`/post/${id}`, bob, first), { id: String(id) });
    const edited = await call(postPage.action, formPost(`/post/${id}`, bob, { ...first, content: "Buck on camera at dawn" }), {
      id: String(id),
    });
    expect(edited.status).toBe(422);
    expect(((await edited.json()) as { error: string }).error).toMatch(/already sent/);
    expect(await count("SELECT count(*) AS n FROM comments WHERE post_id = ?", id)).toBe(1);
  });

  it("the outbox's resend of a post form (fields reordered, intent added) is still the same request", async () => {
    const idempotencyKey = uniqueKey();
    const before = await posts();
    const first = await call(createPage.action, formPost("/create", alice, { ...body, tags: "rut", idempotencyKey }));
    const resent = await call(
      createPage.action,
      formPost("/create", alice, {
        idempotencyKey,
        intent: "create-post",
        tags: "rut",
        type: body.type,
        content: body.content,
        title: body.title,
      }),
    );
    expect(resent.status).toBe(first.status);
    expect(resent.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await posts()).toBe(before + 1);
  });

  it("a plain multipart post form resent with its photo is the same request (the photo is stored again, one post)", async () => {
    const idempotencyKey = uniqueKey();
    const before = await posts();
    const send = async () => {
      const parts = [
        ...Object.entries({ ...body, tags: "rut", idempotencyKey }).map(([name, value]) => ({ name, value: String(value) })),
        { name: "files", filename: "scrape.png", data: await png(10, 10) },
      ];
      return call(createPage.action, multipartRequest("/create", parts, { cookie: alice.cookie }).request);
    };
    const first = await send();
    const again = await send();
    expect(first.status).toBe(302);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await posts()).toBe(before + 1);
  });

  it("a large answer is kept small: its big fields are left out of the replay, which says so", async () => {
    const created = await call(postsApi.action, apiPost(alice, null));
    const { id } = (await created.json()) as { id: number };
    const key = uniqueKey();
    const edit = { title: "Rub lines", content: "x".repeat(9_990) };
    const put = () =>
      call(
        postApi.action,
        makeRequest(`/api/posts/${id}`, { method: "PUT", json: edit, cookie: alice.cookie, headers: { "Idempotency-Key": key } }),
        {
          id: String(id),
        },
      );
    const first = await put();
    expect(first.status).toBe(200);
    const stored = await queryRow<{ n: number }>(
      "SELECT length(fingerprint) + length(CAST(response AS TEXT)) AS n FROM idempotency_keys WHERE user_id = ? AND key = ?",
      [alice.id, key],
    );
    expect(Number(stored!.n)).toBeLessThan(3_000);
    const again = await put();
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("Idempotent-Omitted")).toMatch(/\bcontent\b/);
    const replayed = (await again.json()) as { id: number; content?: string };
    expect(replayed.id).toBe(id);
    expect(replayed.content).toBeUndefined();
  });

  it("past 1,000 keys in 24 hours a keyed write is refused with 429 and Retry-After, and does not run", async () => {
    const carol = await createMember({ displayName: "Carol Creek" });
    const createdAt = new Date(Date.now() - 60_000);
    const old = Array.from({ length: 1_000 }, (_, i) => ({
      userId: carol.id,
      key: `old-${i}`,
      fingerprint: "POST /api/posts",
      status: 201,
      response: { headers: [], body: "" },
      createdAt,
    }));
    for (let i = 0; i < old.length; i += 250) await db.insert(idempotencyKeys).values(old.slice(i, i + 250));
    const before = await posts();
    const refused = await call(postsApi.action, apiPost(carol, uniqueKey()));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await posts()).toBe(before);
    const unkeyed = await call(postsApi.action, apiPost(carol, null));
    expect(unkeyed.status).toBe(201);
    // A repeat of a key already kept is still answered (these rows were kept before bodies were fingerprinted).
    const repeat = await call(postsApi.action, apiPost(carol, "old-1"));
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
  });
});
