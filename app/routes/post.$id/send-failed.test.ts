import { afterEach, describe, expect, it } from "vitest";
import { keepPageOnFailure } from "~/offline/client-action";
import { onToast, type Toast } from "~/utils/toast";
import { postSendFailed } from "./send-failed";

/** The post route's failure toasts (SPEC.md §8), through the helper every route's clientAction uses. */

const shown: Toast[] = [];
const stop = onToast((t) => shown.push(t));
afterEach(() => {
  shown.length = 0;
});
process.on("exit", stop);

const action = keepPageOnFailure({ failed: postSendFailed });

function args(form: Record<string, string>, serverAction: () => Promise<unknown>) {
  const request = new Request("http://localhost/post/1", { method: "POST", body: new URLSearchParams(form) });
  return { request, params: {}, serverAction } as unknown as Parameters<typeof action>[0];
}

describe("a failed send from a post", () => {
  it("a share answered 500 or dropped: 'Failed to share / Could not share post', not the generic text (issue 31 N2)", async () => {
    await action(args({ intent: "share" }, () => Promise.reject(new Error("Internal Server Error"))));
    await action(args({ intent: "share" }, () => Promise.reject(new TypeError("Failed to fetch"))));
    expect(shown).toEqual(Array(2).fill({ title: "Failed to share", description: "Could not share post", type: "error" }));
  });

  it("the other sends keep their 'Error' toasts", async () => {
    await action(args({ intent: "like" }, () => Promise.reject(new Error("Internal Server Error"))));
    expect(shown).toEqual([{ title: "Error", description: "Failed to update like", type: "error" }]);
  });
});
