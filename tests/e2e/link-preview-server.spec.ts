import Database from "better-sqlite3";
import pg from "pg";
import type { Page } from "@playwright/test";
import { expect, suiteDatabaseUrl, test, uniqueName } from "./fixtures";

/**
 * Issue 31 (audit ux-2 N4/#12): a visitor's home is sent without scripts (ADR 0047), so its cards'
 * link previews are drawn by the server from what it already knows: the post's stored preview or
 * the per-URL cache. A post published while the other site did not answer (this sandbox reaches no
 * site: the publication's fetch fails) has no stored preview; once the cache knows the address, the
 * card shows the preview, for a visitor and a member, on a phone, with no call to
 * /api/fetch-url-metadata. An address the server knows nothing of is the plain link, at once.
 */

const DATA_DIR = process.env.E2E_DATA_DIR ?? `tmp/e2e-${process.env.E2E_PORT ?? 3100}`;

/** What a preview fetch would have stored for `url`, written into the server's cache (its database). */
async function rememberPreview(url: string, data: Record<string, string | null>) {
  const values = [url, JSON.stringify(data), Date.now()];
  const upsert = (p: [string, string, string]) =>
    `INSERT INTO link_previews (url, data, fetched_at) VALUES (${p.join(", ")}) ` +
    "ON CONFLICT (url) DO UPDATE SET data = excluded.data, fetched_at = excluded.fetched_at";
  if (suiteDatabaseUrl) {
    const client = new pg.Client({ connectionString: suiteDatabaseUrl });
    await client.connect();
    try {
      await client.query(upsert(["$1", "$2", "$3"]), values);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(`${DATA_DIR}/app.db`);
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare(upsert(["?", "?", "?"])).run(...values);
  } finally {
    db.close();
  }
}

/** The address of every call to the metadata endpoint `page` makes. */
function metadataCalls(page: Page) {
  const calls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/fetch-url-metadata") calls.push(String(request.postDataJSON()?.url));
  });
  return calls;
}

test("a visitor's and a member's home draw a known link preview on the server, with no metadata call", async ({
  page,
  open,
  signUp,
  createPost,
  newPage,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp();
  const known = `https://podcasts.invalid/${uniqueName("ep")}`;
  const unknown = `https://podcasts.invalid/${uniqueName("ep")}`;
  const knownPost = await createPost({ type: "podcast", title: `Known link ${uniqueName("k")}`, mediaUrl: known });
  const title = `The rut, episode ${uniqueName("t")}`;
  await rememberPreview(known, {
    title,
    description: "Rattling and grunt calls.",
    image: null,
    siteName: "Deer Cast",
    domain: "podcasts.invalid",
    logo: null,
  });
  // Written straight into the cache, which moves no data version: the next post does, so no page
  // drawn before the seed (another test's visitor) is served from the caches.
  const unknownPost = await createPost({ type: "video", title: `Unknown link ${uniqueName("u")}`, mediaUrl: unknown });

  const visitor = await newPage();
  await visitor.setViewportSize({ width: 390, height: 844 });
  const visitorCalls = metadataCalls(visitor);
  await open("/", visitor);
  await expect(visitor.locator("html")).toHaveAttribute("data-scripts", "none");
  const card = visitor.locator(`#post-${knownPost.id}`);
  const preview = card.getByTestId("link-preview");
  await expect(preview).toContainText(title);
  await expect(preview).toContainText("Deer Cast");
  await expect(preview).toHaveAttribute("href", known);
  // Inside the 390 px screen's width, not wider than its card.
  const box = (await preview.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // What the server does not know yet is the plain link, as before.
  await expect(visitor.locator(`#post-${unknownPost.id}`).getByTestId("media-link")).toHaveText(unknown);

  // A member's home draws the same card on the server; the browser asks only for the unknown one.
  const memberCalls = metadataCalls(page);
  await open("/");
  await expect(page.locator(`#post-${knownPost.id}`).getByTestId("link-preview")).toContainText(title);
  // Drawn again (the render cache's kept card, checked in verify mode), still the same.
  await open("/");
  await expect(page.locator(`#post-${knownPost.id}`).getByTestId("link-preview")).toContainText(title);
  await expect(page.locator(`#post-${unknownPost.id}`).getByTestId("media-link")).toHaveText(unknown);

  expect(visitorCalls, "metadata calls on a visitor's home").toEqual([]);
  // With JavaScript a member's card of the unknown address still asks (SPEC.md §4); never the known one.
  expect(memberCalls, "metadata calls on a member's home").not.toContain(known);
});
