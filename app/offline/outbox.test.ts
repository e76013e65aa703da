import { describe, expect, it } from "vitest";
import { closeOutbox, enqueue, itemsOf, noteMember, OUTBOX_MAX_AGE_MS, type OutboxItem, type OutboxItemV1 } from "./outbox";
import { apiCallFor, CANNOT_SEND, flush, replayRequest, TOO_OLD, upgradeItem } from "./outbox-wire";
import { memoryStore } from "#tests/fixtures/outbox";

/** The outbox's rules over an in-memory store (the browser's is IndexedDB; ADR 0034). */

const T = Date.now();
let n = 0;
function item(over: Partial<OutboxItem> = {}): OutboxItem {
  n += 1;
  return {
    format: 2,
    key: `key-${n}`,
    memberId: 1,
    call: { method: "POST", path: "/api/posts/5/comments", json: { content: `comment ${n}` } },
    fields: [
      ["intent", "comment"],
      ["content", `comment ${n}`],
      ["idempotencyKey", `key-${n}`],
    ],
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
      const request = replayRequest(item, "http://localhost");
      const body = (await request.json().catch(() => ({}))) as { content?: string };
      const key = request.headers.get("Idempotency-Key") ?? "";
      if (!keys.has(key)) {
        keys.add(key);
        made.push(body.content ?? item.intent);
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

  it("sends the public /api call as JSON with the item's key as Idempotency-Key (never a ?_data= route id)", async () => {
    const comment = replayRequest(item(), "http://localhost");
    expect(comment.url).toBe("http://localhost/api/posts/5/comments");
    expect(comment.method).toBe("POST");
    expect(comment.headers.get("Idempotency-Key")).toBe(`key-${n}`);
    expect(comment.headers.get("Content-Type")).toBe("application/json");
    expect(await comment.json()).toEqual({ content: `comment ${n}` });
    const unlike = replayRequest(item({ intent: "unlike", call: { method: "DELETE", path: "/api/posts/5/like" } }), "http://localhost");
    expect([unlike.method, new URL(unlike.url).pathname, await unlike.text()]).toEqual(["DELETE", "/api/posts/5/like", ""]);
  });

  it("reads the /api answers: the key still running elsewhere waits, the key used by the page's own send is sent", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    const waiting = item();
    await enqueue(store, waiting);
    const inFlight = { error: "A request with this idempotency key is still in progress. Try again shortly." };
    expect((await flush(store, async () => answer(409, inFlight))).stopped).toBe(true);
    expect(store.items.get(waiting.key)?.state).toBe("waiting");
    // The page's form send (its path and fields) arrived before its reply was lost: the key is taken.
    const usedByForm = { error: "This idempotency key was already used for a different request" };
    expect((await flush(store, async () => answer(422, usedByForm))).sent).toHaveLength(1);
    expect(store.items.size).toBe(0);
    // A 409 that is the request's own refusal (a join already made) is shown, not retried for 7 days.
    const join = item({ intent: "join", page: "/clubs/3", call: { method: "POST", path: "/api/clubs/3/join", json: {} } });
    await enqueue(store, join);
    await flush(store, async () => answer(409, { error: "Already a member of this club" }));
    expect(store.items.get(join.key)).toMatchObject({ state: "gave-up", error: "Already a member of this club" });
  });
});

describe("the outbox's wire format (ADR 0057)", () => {
  /** An item exactly as the build before issue 28 wrote it to IndexedDB. */
  function legacy(over: Partial<OutboxItemV1> & Pick<OutboxItemV1, "url" | "intent" | "fields">): OutboxItemV1 {
    n += 1;
    return {
      key: `old-${n}`,
      memberId: 1,
      multipart: false,
      page: new URL(over.url, "http://x").pathname,
      label: "Old",
      queuedAt: T,
      state: "waiting",
      ...over,
    };
  }
  const key = (k: string) => ["idempotencyKey", k] as [string, string];

  it("translates every kind of item an older build queued as ?_data= into its /api call, keeping its key", () => {
    const cases: Array<[OutboxItemV1, OutboxItem["call"]]> = [
      [
        legacy({
          url: "/post/12?_data=routes%2Fpost.%24id",
          intent: "comment",
          fields: [["intent", "comment"], ["content", "Big buck"], key("k1")],
        }),
        { method: "POST", path: "/api/posts/12/comments", json: { content: "Big buck" } },
      ],
      [
        legacy({ url: "/post/12?_data=routes%2Fpost.%24id", intent: "like", fields: [["intent", "like"]] }),
        { method: "POST", path: "/api/posts/12/like" },
      ],
      [
        legacy({ url: "/post/12?_data=routes%2Fpost.%24id", intent: "unlike", fields: [["intent", "unlike"]] }),
        { method: "DELETE", path: "/api/posts/12/like" },
      ],
      [
        legacy({ url: "/profile/buck%20hunter?_data=routes%2Fprofile.%24username", intent: "follow", fields: [["intent", "follow"]] }),
        { method: "POST", path: "/api/users/buck%20hunter/follow" },
      ],
      [
        legacy({ url: "/profile/doe?_data=routes%2Fprofile.%24username", intent: "unfollow", fields: [["intent", "unfollow"]] }),
        { method: "DELETE", path: "/api/users/doe/follow" },
      ],
      [
        legacy({
          url: "/clubs/7?_data=routes%2Fclubs.%24id",
          intent: "join",
          fields: [
            ["intent", "join"],
            ["message", "Hunted here 20 years"],
          ],
        }),
        { method: "POST", path: "/api/clubs/7/join", json: { message: "Hunted here 20 years" } },
      ],
      [
        legacy({
          url: "/create?_data=routes%2Fcreate",
          intent: "create-post",
          multipart: true,
          fields: [
            key("k2"),
            ["type", "opinion"],
            ["title", "Rut report"],
            ["mediaUrl", ""],
            ["content", "Scrapes everywhere on the ridge"],
            ["tags", "rut"],
            ["tags", "scrapes"],
            ["intent", "create-post"],
          ],
        }),
        {
          method: "POST",
          path: "/api/posts",
          json: {
            title: "Rut report",
            content: "Scrapes everywhere on the ridge",
            type: "opinion",
            mediaUrl: "",
            tags: ["rut", "scrapes"],
          },
        },
      ],
      [
        legacy({
          url: "/clubs/4/create?_data=routes%2Fclubs.%24id_.create",
          intent: "create-post",
          fields: [
            ["clubId", "4"],
            ["title", "Camp"],
            ["content", "Opening weekend plans"],
            ["uploadedFiles", "/media/a.jpg"],
            ["intent", "create-post"],
          ],
        }),
        {
          method: "POST",
          path: "/api/posts",
          json: { title: "Camp", content: "Opening weekend plans", clubId: 4, uploadedFiles: ["/media/a.jpg"] },
        },
      ],
    ];
    for (const [old, call] of cases) {
      const upgraded = upgradeItem(old);
      expect(upgraded).toMatchObject({ format: 2, key: old.key, state: "waiting", call, fields: old.fields, page: old.page });
      expect(upgraded).not.toHaveProperty("url");
    }
  });

  it("an old item whose route id no longer exists (a renamed route file) still sends, once, as its /api call", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    const old = legacy({
      url: "/post/5?_data=routes%2Fpost.%24id_renamed_in_an_upgrade",
      intent: "comment",
      fields: [["intent", "comment"], ["content", "Queued before the upgrade"], key("old-key")],
      key: "old-key",
    });
    store.items.set(old.key, old as unknown as OutboxItem);
    const srv = server();
    const report = await flush(store, srv.send);
    expect(report.sent.map((i) => i.key)).toEqual(["old-key"]);
    expect(srv.made).toEqual(["Queued before the upgrade"]);
    expect(store.items.size).toBe(0);
  });

  it("an old item naming nothing this build can send is kept, with its text, given up for the member to see", async () => {
    const store = memoryStore();
    await noteMember(store, 1);
    const old = legacy({ url: "/somewhere/new?_data=routes%2Fnew", intent: "comment", fields: [["content", "Keep my words"]] });
    store.items.set(old.key, old as unknown as OutboxItem);
    let calls = 0;
    await flush(store, async () => (calls++, answer(200)));
    expect(calls).toBe(0);
    const [kept] = await itemsOf(store, 1);
    expect(kept).toMatchObject({ state: "gave-up", error: CANNOT_SEND, fields: [["content", "Keep my words"]] });
  });

  it("a hunt's answer made offline goes as POST /api/clubs/{id}/events/{eventId}/rsvp; a later answer replaces the earlier (issue 44)", async () => {
    expect(
      apiCallFor("rsvp", "/clubs/4/events/9", [
        ["intent", "rsvp"],
        ["status", "maybe"],
      ]),
    ).toEqual({
      method: "POST",
      path: "/api/clubs/4/events/9/rsvp",
      json: { status: "maybe" },
    });
    expect(apiCallFor("rsvp", "/clubs/4/events", [["status", "going"]])).toBeNull();
    expect(apiCallFor("rsvp", "/post/4", [["status", "going"]])).toBeNull();
    const store = memoryStore();
    const answer = (status: string, at: number) =>
      item({
        intent: "rsvp",
        page: "/clubs/4/events/9",
        call: { method: "POST", path: "/api/clubs/4/events/9/rsvp", json: { status } },
        queuedAt: at,
      });
    await enqueue(store, answer("going", T + 1));
    const last = answer("no", T + 2);
    await enqueue(store, last);
    expect([...store.items.keys()]).toEqual([last.key]);
  });

  it("a post's field report part goes as `field`; a part left blank goes as nothing (issue 45)", () => {
    const fields: Array<[string, string]> = [
      ["title", "Two bucks on the ridge"],
      ["content", "Both cruising the scrape line at dawn."],
      ["field.sent", "on"],
      ["field.kind", "sighting"],
      ["field.county", "18089"],
      ["field.observedOn", "2026-11-29"],
      ["field.rutPhase", ""],
      ["field.bucks", "2"],
    ];
    expect(apiCallFor("create-post", "/create", fields)?.json).toMatchObject({
      field: { sent: "on", kind: "sighting", county: "18089", observedOn: "2026-11-29", bucks: "2" },
    });
    const blank = apiCallFor("create-post", "/create", [
      ["title", "Just a thought"],
      ["field.kind", ""],
      ["field.county", ""],
    ]);
    expect(blank?.json).not.toHaveProperty("field");
  });

  it("a form on a page with no /api twin is not kept as something it is not", () => {
    expect(apiCallFor("comment", "/clubs/3", [["content", "x"]])).toBeNull();
    expect(apiCallFor("create-post", "/post/3", [["title", "x"]])).toBeNull();
    expect(apiCallFor("delete", "/post/3", [])).toBeNull();
  });
});
