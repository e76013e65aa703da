import { afterEach, describe, expect, it } from "vitest";
import { failedToast, isQueued, isUnsent, keepPageOnFailure, notePageViewer, shouldRevalidate } from "./client-action";
import { memoryStore } from "#tests/fixtures/outbox";
import { setOutboxStore, startOutbox } from "~/offline/outbox-client";
import { onToast, type Toast } from "~/utils/toast";

/** The one helper behind every route's clientAction (SPEC.md §8 toasts; the page stays). */

const shown: Toast[] = [];
const stop = onToast((t) => shown.push(t));
afterEach(() => {
  shown.length = 0;
});
process.on("exit", stop);

function args(form: Record<string, string>, serverAction: () => Promise<unknown>) {
  const body = new URLSearchParams(form);
  const request = new Request("http://localhost/post/1", { method: "POST", body });
  return { request, params: {}, serverAction } as unknown as Parameters<ReturnType<typeof keepPageOnFailure>>[0];
}

const action = keepPageOnFailure({
  failed: failedToast({ rename: { update: "update-club" } }),
  signIn: (form) => (form.get("intent") === "comment" ? { title: "Failed to comment", description: "Please sign in to comment" } : null),
});

describe("keepPageOnFailure", () => {
  it("passes the server's answer through", async () => {
    expect(await action(args({ intent: "like" }, async () => ({ ok: true })))).toEqual({ ok: true });
    expect(shown).toEqual([]);
  });

  it("a 5xx or a dropped connection: SPEC's toast by intent, and the page stays (no revalidation)", async () => {
    const result = await action(args({ intent: "like" }, () => Promise.reject(new TypeError("Failed to fetch"))));
    expect(isUnsent(result)).toBe(true);
    expect(shown).toEqual([{ title: "Error", description: "Failed to update like", type: "error" }]);
    expect(shouldRevalidate({ actionResult: result, defaultShouldRevalidate: true } as never)).toBe(false);
    await action(args({ intent: "update" }, () => Promise.reject(new Error("Internal Server Error"))));
    expect(shown[1]?.description).toBe("Failed to update club");
  });

  it("an ended session (a sign-in redirect, or a 401 answer) shows the sign-in notice instead", async () => {
    notePageViewer(true);
    const redirect = new Response(null, { status: 302, headers: { Location: "/auth?mode=login&redirectTo=%2Fpost%2F1" } });
    expect(isUnsent(await action(args({ intent: "comment" }, () => Promise.reject(redirect))))).toBe(true);
    expect(isUnsent(await action(args({ intent: "comment" }, async () => ({ ok: false, status: 401, error: "x" }))))).toBe(true);
    expect(shown.map((t) => t.description)).toEqual(["Please sign in to comment", "Please sign in to comment"]);
    // Each leads to sign in and back to the page, where the draft waits.
    expect(shown.map((t) => t.action?.href)).toEqual(Array(2).fill(expect.stringMatching(/^\/auth\?mode=login&redirectTo=%2F/)));
  });

  it("a visitor's sign-in redirect goes on to sign in, as without JavaScript", async () => {
    notePageViewer(false);
    const redirect = new Response(null, { status: 302, headers: { Location: "/auth?mode=login&redirectTo=%2Fclubs%2F1" } });
    await expect(action(args({ intent: "comment" }, () => Promise.reject(redirect)))).rejects.toBe(redirect);
    expect(shown).toEqual([]);
  });

  it("other redirects and refusals go on as before", async () => {
    const done = new Response(null, { status: 302, headers: { Location: "/post/2" } });
    await expect(action(args({ intent: "comment" }, () => Promise.reject(done)))).rejects.toBe(done);
    const refused = new Response("{}", { status: 403 });
    await expect(action(args({ intent: "like" }, () => Promise.reject(refused)))).rejects.toBe(refused);
    expect(shown).toEqual([]);
  });
});

describe("keepPageOnFailure with an outbox (ADR 0034)", () => {
  const queueing = keepPageOnFailure({
    failed: failedToast(),
    outbox: { label: () => "Comment" },
  });

  it("no signal: a comment waits in the outbox with its key, and the toast says so; a 5xx or 4xx is not kept", async () => {
    const store = memoryStore();
    setOutboxStore(store);
    await startOutbox(1);
    const form = { intent: "comment", content: "Big 8 at the scrape", idempotencyKey: "k-1" };
    const result = await queueing(args(form, () => Promise.reject(new TypeError("Failed to fetch"))));
    expect(isQueued(result)).toBe(true);
    // SPEC.md §8's message still shows, saying that it waits.
    expect(shown).toEqual([
      { title: "Error", description: "Failed to comment. Waiting — will send when you're back in coverage.", type: "info" },
    ]);
    shown.length = 0;
    expect([...store.items.values()]).toEqual([
      expect.objectContaining({
        key: "k-1",
        memberId: 1,
        format: 2,
        call: { method: "POST", path: "/api/posts/1/comments", json: { content: "Big 8 at the scrape" } },
        page: "/post/1",
        intent: "comment",
        state: "waiting",
        fields: Object.entries(form),
      }),
    ]);
    // The server answered 5xx: today's toast, nothing kept.
    const failed = await queueing(args({ ...form, idempotencyKey: "k-2" }, () => Promise.reject(new Error("Internal Server Error"))));
    expect(isQueued(failed)).toBe(false);
    expect(shown.map((t) => t.description)).toEqual(["Failed to comment"]);
    // A refusal goes on to the page as before.
    const refused = new Response("{}", { status: 403 });
    await expect(queueing(args({ ...form, idempotencyKey: "k-3" }, () => Promise.reject(refused)))).rejects.toBe(refused);
    expect(store.items.size).toBe(1);
  });

  it("a like gets a key of its own; a share, or a visitor's send, is not kept", async () => {
    const store = memoryStore();
    setOutboxStore(store);
    await startOutbox(1);
    expect(isQueued(await queueing(args({ intent: "like" }, () => Promise.reject(new TypeError("x")))))).toBe(true);
    const [like] = store.items.values();
    expect(like?.call).toEqual({ method: "POST", path: "/api/posts/1/like" });
    expect(like?.fields).toEqual([
      ["intent", "like"],
      ["idempotencyKey", like?.key],
    ]);
    expect(isQueued(await queueing(args({ intent: "share" }, () => Promise.reject(new TypeError("x")))))).toBe(false);
    await startOutbox(null);
    expect(isQueued(await queueing(args({ intent: "like" }, () => Promise.reject(new TypeError("x")))))).toBe(false);
  });
});
