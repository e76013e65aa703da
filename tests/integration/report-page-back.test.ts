import { describe, expect, it } from "vitest";
import { createPost } from "~/models/posts/post.server";
import { action, loader } from "~/routes/report/report-page.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import { postInput } from "../fixtures/posts";

/**
 * /report's way back (`from`): its Cancel link and where sending the report goes. Only a path on
 * this site; a tab or a newline after the first slash is stripped by browsers, so `/\t/host` is
 * `//host`, another site (found by issue 40's security tests; the page checked only `//` and `/\`).
 */
const OFF_SITE = [
  "/%09/evil.example",
  "/%0A/evil.example",
  "//evil.example",
  "/\\evil.example",
  "https://evil.example/",
  "/%2F/evil.example",
];

describe("/report?from=", () => {
  it("keeps a path on this site, and goes back to the reported post for anything else, on the page and after sending", async () => {
    const author = await createMember();
    const reporter = await createMember();
    const post = await createPost(author, postInput(), { preview: async () => null });
    const page = (from: string) => `/report?type=post&id=${post.id}&from=${from}`;

    const kept = await call(loader, makeRequest(page(encodeURIComponent(`/post/${post.id}?sort=new`)), { cookie: reporter.cookie }));
    expect(((await kept.json()) as { back: string }).back).toBe(`/post/${post.id}?sort=new`);

    for (const from of OFF_SITE) {
      const shown = await call(loader, makeRequest(page(from.replace(/\\/g, "%5C")), { cookie: reporter.cookie }));
      expect(((await shown.json()) as { back: string }).back, from).toBe(`/post/${post.id}`);
    }
    const sent = await call(
      action,
      makeRequest(page("%2F%09%2Fevil.example"), { form: { reason: "spam", details: "" }, cookie: reporter.cookie }),
    );
    expect(sent.status).toBe(302);
    expect(new URL(sent.headers.get("Location")!, "http://localhost").origin).toBe("http://localhost");
    expect(sent.headers.get("Location")).toBe(`/post/${post.id}`);
  });
});
