import { afterEach, describe, expect, it } from "vitest";
import { failedToast, isUnsent, keepPageOnFailure, notePageViewer, shouldRevalidate } from "./client-action";
import { onToast, type Toast } from "./toast";

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
