import { describe, expect, it } from "vitest";
import { DOCUMENT_PART, oldestSaved, pageOf } from "./saved-pages";

describe("pageOf", () => {
  it("names a document by its address, and loader data by its page and route", () => {
    expect(pageOf(new URL("http://x/post/3?edit=1"))).toEqual({ page: "/post/3?edit=1", part: DOCUMENT_PART });
    expect(pageOf(new URL("http://x/post/3?_data=routes%2Fpost.%24id"))).toEqual({ page: "/post/3", part: "routes/post.$id" });
    expect(pageOf(new URL("http://x/?index&_data=routes%2F_index"))).toEqual({ page: "/", part: "routes/_index" });
    expect(pageOf(new URL("http://x/?sort=popular&index=&_data=routes%2F_index"))).toEqual({
      page: "/?sort=popular",
      part: "routes/_index",
    });
    expect(pageOf(new URL("http://x/clubs/2?_data=root"))).toEqual({ page: "/clubs/2", part: "root" });
  });
});

describe("oldestSaved", () => {
  it("is the oldest saved part, or null when every part is fresh", () => {
    expect(oldestSaved(undefined)).toBeNull();
    expect(oldestSaved(new Map([["routes/post.$id", null]]))).toBeNull();
    expect(
      oldestSaved(
        new Map<string, number | null>([
          ["routes/clubs.$id", 200],
          ["routes/clubs.$id._index", 100],
          ["root", null],
        ]),
      ),
    ).toBe(100);
  });
});
