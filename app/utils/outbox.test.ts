import { describe, expect, it } from "vitest";
import { closeOutbox, enqueue, flush, itemsOf, noteMember, OUTBOX_MAX_AGE_MS, replayRequest, TOO_OLD, type OutboxItem } from "./outbox";
import { memoryStore } from "#tests/fixtures/outbox";

/** The outbox's rules over an in-memory store (the browser's is IndexedDB; ADR 0034). */

const T = Date.now();
let n = 0;
function item(over: Partial<OutboxItem> = {}): OutboxItem {
  n += 1;
  return {
    key: `key-${n}`,
    memberId: 1,
    url: "/post/5?_data=routes%2Fpost.%24id",
    fields: [
      ["intent", "comment"],
      ["content", `comment ${n}`],
      ["idempotencyKey", `key-${n}`],
    ],
    multipart: false,
    intent: "comment",
    page: "/post/5",
    label: "Comment",
    queuedAt: T,
    state: "waiting",
    ...over,
  };
}

const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers });

/** A server that keeps idempotency keys as CONTRACT.md §6 says: a repeat of a key changes nothing. */
function server() {
  const made: string[] = [];
  const keys = new Set<string>();
  return {
    made,
    send: async (item: OutboxItem) => {
      const body = new URLSearchParams(await replayRequest(item, "http://localhost").text());
      const key = body.get("idempotencyKey") ?? "";
      if (!keys.has(key)) {
        keys.add(key);
        made.push(body.get("content") ?? body.get("intent") ?? "");
      }
      return answer(200, { ok: true });
    },
  };
}

describe("outbox", () => {
  it("keeps a member's items in order; a second like/unlike of the same post replaces the first", async () => {
    const store = memoryStore();
    const comment = item({ queuedAt: T + 1 });
    await enqueue(store, comment);
    await enqueue(store, item({ intent: "like", queuedAt: T + 2 }));
    const unlike = item({ intent: "unlike", queuedAt: T + 3 });
    await enqueue(store, unlike);
    await enqueue(store, { ...comment, label: "same key, sent twice" });
    await enqueue(store, item({ memberId: 2 }));
    expect((await itemsOf(store, 1)).map((i) => [i.key, i.intent])).toEqual([
      [comment.key, "comment"],
      [unlike.key, "unlike"],
    ]);
    expect(await itemsOf(store, null)).toEqual([]);
  });

  it("sends the signed-in member's items with their keys, and removes what was sent", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    const first = item({ queuedAt: T + 1 });
    await enqueue(store, first);
    await enqueue(store, item({ queuedAt: T + 2 }));
    const srv = server();
    const report = await flush(store, srv.send);
    expect(report.sent.map((i) => i.key)).toEqual([first.key, `key-${n}`]);
    expect(srv.made).toEqual([`comment ${n - 1}`, `comment ${n}`]);
    expect(store.items.size).toBe(0);
  });

  it("exactly once: a page and the worker (or two tabs) sending the same item make one comment", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    await enqueue(store, item());
    const srv = server();
    await Promise.all([flush(store, srv.send), flush(store, srv.send)]);
    expect(srv.made).toEqual([`comment ${n}`]);
    expect(store.items.size).toBe(0);
  });

  it("no signal: stops at the first failure and keeps everything for later", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    await enqueue(store, item({ queuedAt: T + 1 }));
    await enqueue(store, item({ queuedAt: T + 2 }));
    let calls = 0;
    const report = await flush(store, async () => {
      calls += 1;
      throw new TypeError("Failed to fetch");
    });
    expect(report).toMatchObject({ stopped: true, sent: [] });
    expect(calls).toBe(1);
    expect([...store.items.values()].every((i) => i.state === "waiting")).toBe(true);
    // 5xx, 409 (the same key in flight elsewhere) and 429 are tried again later too.
    for (const status of [500, 503, 409, 429]) {
      expect((await flush(store, async () => answer(status))).stopped).toBe(true);
      expect(store.items.size).toBe(2);
    }
  });

  it("a 4xx refusal is given up with its message, and the rest still go", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    const refused = item({ queuedAt: T + 1 });
    await enqueue(store, refused);
    await enqueue(store, item({ queuedAt: T + 2 }));
    const report = await flush(store, async (i) =>
      i.key === refused.key ? answer(400, { ok: false, error: "Comment cannot be empty" }) : answer(200),
    );
    expect(report.sent).toHaveLength(1);
    expect([...store.items.values()]).toEqual([{ ...refused, state: "gave-up", error: "Comment cannot be empty" }]);
    // A given-up item is never sent again.
    let calls = 0;
    await flush(store, async () => (calls++, answer(200)));
    expect(calls).toBe(0);
  });

  it("an ended session (401, or a redirect to sign in) keeps the item until the member signs in again", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    const waiting = item();
    await enqueue(store, waiting);
    await flush(store, async () => answer(401, { ok: false, status: 401 }));
    expect(store.items.get(waiting.key)?.state).toBe("sign-in");
    await flush(store, async () => answer(204, null, { "X-Remix-Redirect": "/auth?mode=login&redirectTo=%2Fcreate" }));
    expect(store.items.get(waiting.key)?.state).toBe("sign-in");
    // Signed in again: sent.
    expect((await flush(store, async () => answer(204, null, { "X-Remix-Redirect": "/post/9" }))).sent).toHaveLength(1);
    expect(store.items.size).toBe(0);
  });

  it("gives up on an item older than 7 days without sending it", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    const old = item({ queuedAt: T });
    await enqueue(store, old);
    let calls = 0;
    await flush(
      store,
      async () => (calls++, answer(200)),
      () => T + OUTBOX_MAX_AGE_MS + 1,
    );
    expect(calls).toBe(0);
    expect(store.items.get(old.key)).toMatchObject({ state: "gave-up", error: TOO_OLD });
  });

  it("per member: nothing queued by one member is sent as another, or after logout", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    await enqueue(store, item());
    const srv = server();
    // Another member signs in on the device: the first member's items are gone, never sent.
    await noteMember(store, 2);
    expect(store.items.size).toBe(0);
    await enqueue(store, item({ memberId: 2 }));
    await closeOutbox(store);
    expect(store.items.size).toBe(0);
    expect(await store.member()).toBeNull();
    await enqueue(store, item({ memberId: 2 }));
    await flush(store, srv.send);
    expect(srv.made).toEqual([]);
  });

  it("stops when the member changes while an item is on its way", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    await enqueue(store, item({ queuedAt: T + 1 }));
    await enqueue(store, item({ queuedAt: T + 2 }));
    let calls = 0;
    await flush(store, async () => {
      calls += 1;
      await store.setMember(null);
      return answer(200);
    });
    expect(calls).toBe(1);
  });

  it("replays to the same route, as a script request with the same fields (multipart when the form was)", async () => {
    const plain = replayRequest(item(), "http://localhost");
    expect(plain.url).toBe("http://localhost/post/5?_data=routes%2Fpost.%24id");
    expect(plain.method).toBe("POST");
    expect(new URLSearchParams(await plain.text()).get("idempotencyKey")).toBe(`key-${n}`);
    const multi = await replayRequest(item({ multipart: true }), "http://localhost").formData();
    expect(multi.get("content")).toBe(`comment ${n}`);
  });
});
