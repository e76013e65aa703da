import { describe, expect, it } from "vitest";
import { addComment } from "~/models/posts/comment.server";
import { notify } from "~/models/notifications/notification.server";
import { createPost } from "~/models/posts/post.server";
import * as countRoute from "~/routes/api.notifications.count";
import * as readRoute from "~/routes/api.notifications.read";
import * as listRoute from "~/routes/api.notifications";
import { call, createMember, makeRequest } from "../fixtures/members";
import { makeClub, postInput } from "../fixtures/posts";

type Member = Awaited<ReturnType<typeof createMember>>;
type Item = { id: number; kind: string; read: boolean; text: string; href: string; post?: { id: number; title: string } };
type Page = { items: Item[]; unread: number; nextCursor: string | null };
const noPreview = { preview: async () => null };

const list = (who: Member | null, query = "") => call(listRoute.loader, makeRequest(`/api/notifications${query}`, { cookie: who?.cookie }));
const unread = (who: Member | null) => call(countRoute.loader, makeRequest("/api/notifications/count", { cookie: who?.cookie }));
const read = (who: Member | null, json: unknown) =>
  call(readRoute.action, makeRequest("/api/notifications/read", { json, cookie: who?.cookie }));
const pageOf = async (who: Member, query = "") => (await (await list(who, query)).json()) as Page;
const countOf = async (who: Member) => ((await (await unread(who)).json()) as { unread: number }).unread;

/**
 * `n` notifications for `to`, each from `from`: what the list pages through. Join requests, since
 * each is a new act (a follow repeated within a day tells once: CONTRACT.md §11).
 */
async function requests(to: Member, from: Member, n: number) {
  const clubId = await makeClub(from.id);
  for (let i = 0; i < n; i += 1) await notify([to.id], { kind: "join_request", actorId: from.id, clubId });
}

describe("GET /api/notifications and /count (CONTRACT.md §7)", () => {
  it("401 signed out; the owner sees a comment on their post with its text and link; another member sees none of it", async () => {
    const author = await createMember();
    const commenter = await createMember({ displayName: "Bea Commenter" });
    const bystander = await createMember();
    const post = await createPost(author, postInput({ title: "Buck at dawn" }), noPreview);
    await addComment(commenter, post.id, { content: "Nice one" });

    for (const response of [await list(null), await unread(null)]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }

    const response = await list(author);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const page = (await response.json()) as Page;
    expect(page.unread).toBe(1);
    expect(page.nextCursor).toBeNull();
    expect(page.items).toEqual([
      expect.objectContaining({
        kind: "comment",
        read: false,
        createdAt: expect.any(String),
        text: "Bea Commenter commented on “Buck at dawn”",
        href: expect.stringMatching(new RegExp(`^/post/${post.id}`)),
        actors: [expect.objectContaining({ username: commenter.username, displayName: "Bea Commenter" })],
        actorCount: 1,
        post: { id: post.id, title: "Buck at dawn" },
      }),
    ]);
    const countResponse = await unread(author);
    expect(countResponse.status).toBe(200);
    expect(countResponse.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await countResponse.json()).toEqual({ unread: 1 });

    expect(await pageOf(bystander)).toEqual({ items: [], unread: 0, nextCursor: null });
    expect(await countOf(bystander)).toBe(0);
    expect(await pageOf(commenter)).toEqual({ items: [], unread: 0, nextCursor: null });
  });

  it("pages newest first with a cursor and a limit; a bad cursor gives the first page", async () => {
    const owner = await createMember();
    const other = await createMember();
    await requests(owner, other, 35);

    const first = await pageOf(owner);
    expect(first.items).toHaveLength(30);
    expect(first.unread).toBe(35);
    const ids = first.items.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(first.nextCursor).toBe(String(ids[29]));

    const second = await pageOf(owner, `?cursor=${first.nextCursor}`);
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    expect(Math.max(...second.items.map((item) => item.id))).toBeLessThan(Math.min(...ids));

    const small = await pageOf(owner, "?limit=10");
    expect(small.items.map((item) => item.id)).toEqual(ids.slice(0, 10));
    expect((await pageOf(owner, "?cursor=nonsense")).items.map((item) => item.id)).toEqual(ids);
  });

  it("the count stops at 100 (the bar's 99+)", async () => {
    const owner = await createMember();
    const other = await createMember();
    await requests(owner, other, 101);
    expect(await countOf(owner)).toBe(100);
  });
});

describe("POST /api/notifications/read (CONTRACT.md §7)", () => {
  it("401 signed out, 400 a bad body, 405 on GET; changes nothing then", async () => {
    const owner = await createMember();
    const other = await createMember();
    await requests(owner, other, 2);
    const [item] = (await pageOf(owner)).items;

    expect((await read(null, {})).status).toBe(401);
    expect((await read(null, { ids: [item!.id] })).status).toBe(401);
    for (const body of [
      { ids: "all" },
      { ids: [-1] },
      { ids: [1.5] },
      { ids: ["x"] },
      { ids: Array.from({ length: 101 }, (_, i) => i + 1) },
    ]) {
      const response = await read(owner, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String), fieldErrors: expect.any(Object) });
    }
    expect((await read(owner, "not json")).status).toBe(400);
    expect((await call(readRoute.loader, makeRequest("/api/notifications/read", { cookie: owner.cookie }))).status).toBe(405);
    expect(await countOf(owner)).toBe(2);
  });

  it("marks some, then all, of the owner's own; another member's ids change nothing of theirs", async () => {
    const owner = await createMember();
    const intruder = await createMember();
    await requests(owner, intruder, 3);
    await requests(intruder, owner, 1);
    const [a, b, c] = (await pageOf(owner)).items;

    // The intruder names the owner's ids: 204 (nothing of theirs), the owner's stay unread.
    expect((await read(intruder, { ids: [a!.id, b!.id] })).status).toBe(204);
    expect(await countOf(owner)).toBe(3);
    expect(await countOf(intruder)).toBe(1);

    const some = await read(owner, { ids: [a!.id] });
    expect(some.status).toBe(204);
    expect(await some.text()).toBe("");
    const after = await pageOf(owner);
    expect(after.unread).toBe(2);
    expect(after.items.map((item) => [item.id, item.read])).toEqual([
      [a!.id, true],
      [b!.id, false],
      [c!.id, false],
    ]);
    expect(await countOf(intruder)).toBe(1);

    expect((await read(owner, {})).status).toBe(204);
    expect(await countOf(owner)).toBe(0);
    expect((await pageOf(owner)).items.every((item) => item.read)).toBe(true);
    // All means the owner's all: the intruder's own stays unread.
    expect(await countOf(intruder)).toBe(1);
  });
});
