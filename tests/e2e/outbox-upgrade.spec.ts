import type { Page } from "@playwright/test";
import { expect, hydrated, test, uniqueName } from "./fixtures";

/**
 * Issue 28: the outbox keeps a waiting send as the public `/api/*` call with its Idempotency-Key
 * (docs/decisions/0057-outbox-speaks-the-public-api.md). Items an older build queued as Remix's
 * internal `?_data=<route id>` request, for up to 7 days, still send after an upgrade that renamed
 * the route file, once; one this build cannot send is shown with its text, never dropped. The outbox
 * needs JavaScript: js-on only.
 */
test.describe("the outbox across an upgrade", () => {
  test.skip(({ js }) => !js, "the outbox needs JavaScript");

  /** Writes an item into the outbox's IndexedDB exactly as the build before issue 28 did (format 1). */
  async function queueAsOldBuild(page: Page, item: { url: string; intent: string; fields: Array<[string, string]>; label: string }) {
    // The page has opened the outbox and noted the member (startOutbox) before the item goes in.
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            new Promise<number | null>((resolve) => {
              const open = indexedDB.open("wp-outbox", 1);
              open.onsuccess = () => {
                const get = open.result.transaction("meta").objectStore("meta").get("member");
                get.onsuccess = () => resolve((get.result as number | undefined) ?? null);
                get.onerror = () => resolve(null);
              };
              open.onerror = () => resolve(null);
            }),
        ),
      )
      .not.toBeNull();
    return page.evaluate(
      ({ url, intent, fields, label }) =>
        new Promise<string>((resolve, reject) => {
          const open = indexedDB.open("wp-outbox", 1);
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction(["meta", "items"], "readwrite");
            const member = tx.objectStore("meta").get("member");
            const key = `old-build-${Math.random().toString(16).slice(2)}`;
            member.onsuccess = () => {
              tx.objectStore("items").put({
                key,
                memberId: member.result as number,
                url,
                fields: [...fields, ["idempotencyKey", key]],
                multipart: false,
                intent,
                page: new URL(url, location.origin).pathname,
                label,
                queuedAt: Date.now() - 60_000,
                state: "waiting",
              });
            };
            tx.oncomplete = () => resolve(key);
            tx.onerror = () => reject(tx.error);
          };
          open.onerror = () => reject(open.error);
        }),
      item,
    );
  }

  test("a comment and a like queued as ?_data= of a route since renamed are sent after the upgrade, once", async ({
    page,
    open,
    signUp,
    createPost,
  }) => {
    await signUp();
    const post = await createPost();
    // Counted from the first load: the page's own first flush (startOutbox) may still be reading
    // the outbox when the first item goes in, and then sends it before the reload below (seen on a
    // loaded CI machine, where loading the outbox's wire takes a while). Either way, each is sent once.
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.method() !== "GET") sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await open(`/post/${post.id}`);
    await hydrated(page);
    const text = `Queued before the upgrade ${uniqueName("c")}`;
    // The route file was `post.$id_old` when these were queued: that route id no longer exists.
    const url = `/post/${post.id}?_data=${encodeURIComponent("routes/post.$id_old")}`;
    await queueAsOldBuild(page, {
      url,
      intent: "comment",
      fields: [
        ["intent", "comment"],
        ["content", text],
      ],
      label: "Comment",
    });
    await queueAsOldBuild(page, { url, intent: "like", fields: [["intent", "like"]], label: "Like" });

    // The next page load sends what waits (startOutbox), as /api calls.
    await page.reload();
    await hydrated(page);
    const section = page.locator("#comments");
    await expect(section.getByTestId("comment").filter({ hasText: text })).toHaveCount(1);
    await expect(section.getByTestId("waiting-comment")).toHaveCount(0);
    await expect(page.getByTestId("outbox-note")).toHaveCount(0);
    expect(sent).toEqual([`POST /api/posts/${post.id}/comments`, `POST /api/posts/${post.id}/like`]);

    const comments = (await (await page.request.get(`/api/posts/${post.id}/comments`)).json()) as Array<{ content: string }>;
    expect(comments.map((c) => c.content)).toEqual([text]);
    expect(((await (await page.request.get(`/api/posts/${post.id}`)).json()) as { likes: number }).likes).toBe(1);

    // Loaded again: nothing is sent twice.
    await page.reload();
    await hydrated(page);
    await expect(section.getByTestId("comment").filter({ hasText: text })).toHaveCount(1);
  });

  test("an old item this build cannot send is shown with its text and kept until the member dismisses it", async ({
    page,
    open,
    signUp,
  }) => {
    await signUp();
    await open("/");
    await hydrated(page);
    const text = `Words that must not vanish ${uniqueName("w")}`;
    await queueAsOldBuild(page, {
      url: `/camp-journal/3?_data=${encodeURIComponent("routes/camp-journal.$id")}`,
      intent: "comment",
      fields: [
        ["intent", "comment"],
        ["content", text],
      ],
      label: "Comment",
    });
    await page.reload();
    await hydrated(page);
    const note = page.getByTestId("outbox-note");
    await expect(note.getByTestId("outbox-text")).toHaveText(text);
    await expect(note).toContainText("Not sent: This version of the site cannot send it.");
    // Still there after another load: only the member's Dismiss removes it.
    await page.reload();
    await hydrated(page);
    await expect(note.getByTestId("outbox-text")).toHaveText(text);
    await note.getByRole("button", { name: "Dismiss" }).click();
    await expect(note).toHaveCount(0);
  });
});
