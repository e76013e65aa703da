import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fieldReports, FIELD_REPORT_KINDS as DB_KINDS, RUT_PHASES as DB_PHASES, posts } from "#db/schema";
import { call, createMember, makeRequest } from "#tests/fixtures/members";
import { failure, postInput } from "#tests/fixtures/posts";
import { createPost, getPost, updatePost } from "~/models/posts/post.server";
import * as postsRoute from "~/routes/api.posts";
import * as postRoute from "~/routes/api.posts.$id";
import * as createPage from "~/routes/create";
import * as postPage from "~/routes/post.$id/route";
import { FIELD_REPORT_KINDS, FIELD_REPORT_MESSAGES, RUT_PHASES } from "~/schemas/field-report";
import type { Post } from "~/schemas/shapes";
import { db } from "~/utils/db.server";
import { addDays, localDate } from "~/utils/hunt-day";

/**
 * Field reports on posts (issue 45 item 1, CONTRACT.md §14): `field` on create and edit, JSON and
 * form, checked (a real county, a day not yet to come in that county, the counts' bounds), stored
 * with the post in its transaction, and answered on the post object.
 */

const noPreview = { preview: async () => null };
// Lake County, Indiana: America/Chicago.
const LAKE_IN = { fips: "18089", name: "Lake", state: "IN" };
const todayInLake = () => localDate(Date.now(), "America/Chicago");
const sighting = (over: Record<string, unknown> = {}) => ({
  kind: "sighting",
  county: LAKE_IN.fips,
  observedOn: addDays(todayInLake(), -1),
  rutPhase: "seeking",
  bucks: 2,
  does: 3,
  ...over,
});

const rows = async (postId: number) => db.select().from(fieldReports).where(eq(fieldReports.postId, postId));
const countPosts = async () => (await db.select({ id: posts.id }).from(posts)).length;
const countReports = async () => (await db.select({ id: fieldReports.postId }).from(fieldReports)).length;

const createJson = (who: { cookie: string } | null, json: unknown) =>
  call(postsRoute.action, makeRequest("/api/posts", { json, cookie: who?.cookie }));
const putJson = (who: { cookie: string } | null, id: number, json: unknown) =>
  call(postRoute.action, makeRequest(`/api/posts/${id}`, { method: "PUT", json, cookie: who?.cookie }), { id: String(id) });

describe("the lists the database and the forms share", () => {
  it("are the same", () => {
    expect([...FIELD_REPORT_KINDS]).toEqual([...DB_KINDS]);
    expect([...RUT_PHASES]).toEqual([...DB_PHASES]);
  });
});

describe("POST /api/posts with `field`", () => {
  it("stores the report with the post and answers it with the county's name and state; without `field` the post answers null", async () => {
    const author = await createMember();
    const res = await createJson(author, { ...postInput(), field: sighting() });
    expect(res.status).toBe(201);
    const post = (await res.json()) as Post;
    expect(post.field).toEqual({
      kind: "sighting",
      county: LAKE_IN,
      observedOn: addDays(todayInLake(), -1),
      rutPhase: "seeking",
      bucks: 2,
      does: 3,
    });
    const [row] = await rows(post.id);
    expect(row).toMatchObject({ authorId: author.id, county: "18089", kind: "sighting" });

    const plain = (await (await createJson(author, postInput())).json()) as Post;
    expect(plain.field).toBeNull();
    const blank = (await (await createJson(author, { ...postInput(), field: null })).json()) as Post;
    expect(blank.field).toBeNull();
    // The optional parts may be left out.
    const bare = (await (
      await createJson(author, { ...postInput(), field: { kind: "harvest", county: "18089", observedOn: todayInLake() } })
    ).json()) as Post;
    expect(bare.field).toMatchObject({ kind: "harvest", rutPhase: null, bucks: null, does: null });
  });

  it("refuses a bad report with a message under the field's own key, and stores neither the post nor the report", async () => {
    const author = await createMember();
    const cases: [Record<string, unknown>, string, string][] = [
      [sighting({ kind: "rumour" }), "field.kind", FIELD_REPORT_MESSAGES.kind],
      [sighting({ county: "1808" }), "field.county", FIELD_REPORT_MESSAGES.countyShape],
      [sighting({ county: "99999" }), "field.county", FIELD_REPORT_MESSAGES.countyUnknown],
      [sighting({ county: undefined }), "field.county", FIELD_REPORT_MESSAGES.county],
      // JSON has no "No report" choice: a report without a kind is a mistake, said so.
      [sighting({ kind: undefined }), "field.kind", FIELD_REPORT_MESSAGES.kind],
      [sighting({ observedOn: "2026-02-30" }), "field.observedOn", FIELD_REPORT_MESSAGES.observedOn],
      [sighting({ observedOn: "yesterday" }), "field.observedOn", FIELD_REPORT_MESSAGES.observedOn],
      [sighting({ observedOn: addDays(todayInLake(), 1) }), "field.observedOn", FIELD_REPORT_MESSAGES.future],
      [sighting({ rutPhase: "peak" }), "field.rutPhase", FIELD_REPORT_MESSAGES.rutPhase],
      [sighting({ bucks: 51 }), "field.bucks", FIELD_REPORT_MESSAGES.count],
      [sighting({ does: -1 }), "field.does", FIELD_REPORT_MESSAGES.count],
      [sighting({ does: 1.5 }), "field.does", FIELD_REPORT_MESSAGES.count],
    ];
    const before = [await countPosts(), await countReports()];
    for (const [field, key, message] of cases) {
      const res = await createJson(author, { ...postInput(), field });
      expect(res.status, JSON.stringify(field)).toBe(400);
      const body = (await res.json()) as { fieldErrors: Record<string, string[]> };
      expect(body.fieldErrors[key], JSON.stringify(field)).toEqual([message]);
    }
    expect([await countPosts(), await countReports()]).toEqual(before);
  });

  it("a visitor is 401 and nothing is stored", async () => {
    const before = await countReports();
    expect((await createJson(null, { ...postInput(), field: sighting() })).status).toBe(401);
    expect(await countReports()).toBe(before);
  });
});

describe("PUT /api/posts/{id} with `field`", () => {
  it("absent keeps the report, a new one replaces it (its first time kept), null removes it", async () => {
    const author = await createMember();
    const post = await createPost(author, { ...postInput(), field: sighting() } as never, noPreview);
    const [first] = await rows(post.id);
    const { title, content } = postInput();
    const kept = (await (await putJson(author, post.id, { title, content })).json()) as Post;
    expect(kept.field?.kind).toBe("sighting");
    const changed = (await (
      await putJson(author, post.id, { title, content, field: sighting({ kind: "rut_sign", bucks: null }) })
    ).json()) as Post;
    expect(changed.field).toMatchObject({ kind: "rut_sign", bucks: null, does: 3 });
    const [after] = await rows(post.id);
    expect(after!.createdAt.getTime()).toBe(first!.createdAt.getTime());
    const removed = (await (await putJson(author, post.id, { title, content, field: null })).json()) as Post;
    expect(removed.field).toBeNull();
    expect(await rows(post.id)).toEqual([]);
  });

  it("another member (403) and a visitor (401) change nothing", async () => {
    const author = await createMember();
    const other = await createMember();
    const post = await createPost(author, { ...postInput(), field: sighting() } as never, noPreview);
    const edit = { ...postInput(), mediaUrl: null, tags: null, field: null };
    expect((await failure(() => updatePost(other, post.id, edit as never))).status).toBe(403);
    expect((await failure(() => updatePost(null, post.id, edit as never))).status).toBe(401);
    expect((await putJson(other, post.id, { ...postInput(), field: sighting({ kind: "harvest" }) })).status).toBe(403);
    expect((await rows(post.id))[0]).toMatchObject({ kind: "sighting" });
  });

  it("a bad report on edit is 400 and leaves the post and its report as they were", async () => {
    const author = await createMember();
    const post = await createPost(author, { ...postInput(), field: sighting() } as never, noPreview);
    const res = await putJson(author, post.id, {
      title: "Changed title",
      content: "Changed content here.",
      field: sighting({ county: "00000" }),
    });
    expect(res.status).toBe(400);
    const again = await getPost(author, post.id);
    expect(again.title).toBe(postInput().title);
    expect(again.field?.county.fips).toBe("18089");
  });
});

describe("the editor's form (JavaScript off)", () => {
  const { title, content } = postInput();
  const form = (field: Record<string, string>): Record<string, string> => ({
    title,
    content,
    "field.sent": "on",
    ...Object.fromEntries(Object.entries(field).map(([k, v]) => [`field.${k}`, v])),
  });

  it("/create: a filled part makes the report; a part left blank makes none; a bad one comes back with the message and stores nothing", async () => {
    const author = await createMember();
    const filled = await call(
      createPage.action,
      makeRequest("/create", {
        form: form({ kind: "harvest", county: "18089", observedOn: todayInLake(), bucks: "1", does: "" }),
        cookie: author.cookie,
      }),
    );
    expect(filled.status).toBe(302);
    const id = Number(/\/post\/(\d+)/.exec(filled.headers.get("Location") ?? "")?.[1]);
    expect((await getPost(author, id)).field).toMatchObject({ kind: "harvest", bucks: 1, does: null, rutPhase: null });

    const blank = await call(
      createPage.action,
      makeRequest("/create", {
        // The part fills in the home county and today for the member: "No report" (no kind) is none.
        form: form({ kind: "", county: "18089", observedOn: todayInLake(), rutPhase: "", bucks: "", does: "" }),
        cookie: author.cookie,
      }),
    );
    expect(blank.status).toBe(302);
    const blankId = Number(/\/post\/(\d+)/.exec(blank.headers.get("Location") ?? "")?.[1]);
    expect((await getPost(author, blankId)).field).toBeNull();

    const before = [await countPosts(), await countReports()];
    const bad = await call(
      createPage.action,
      makeRequest("/create", {
        form: form({ kind: "sighting", county: "18089", observedOn: addDays(todayInLake(), 3) }),
        cookie: author.cookie,
      }),
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain(FIELD_REPORT_MESSAGES.future);
    expect([await countPosts(), await countReports()]).toEqual(before);
  });

  it("the post page's edit form: a changed part replaces the report, a part emptied removes it", async () => {
    const author = await createMember();
    const post = await createPost(author, { ...postInput(), field: sighting() } as never, noPreview);
    const edit = (field: Record<string, string>) =>
      call(postPage.action, makeRequest(`/post/${post.id}`, { form: { intent: "update", ...form(field) }, cookie: author.cookie }), {
        id: String(post.id),
      });
    expect((await edit({ kind: "rut_sign", county: "18089", observedOn: todayInLake(), rutPhase: "chasing" })).status).toBe(302);
    expect((await getPost(author, post.id)).field).toMatchObject({ kind: "rut_sign", rutPhase: "chasing", bucks: null });
    expect((await edit({ kind: "", county: "18089", observedOn: todayInLake() })).status).toBe(302);
    expect((await getPost(author, post.id)).field).toBeNull();
  });
});

describe("concurrent writers", () => {
  it("twelve posts with reports written at once: each stored once with its own report", async () => {
    const authors = await Promise.all([1, 2, 3].map(() => createMember()));
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createJson(authors[i % 3]!, { ...postInput({ title: `Sighting ${i}` }), field: sighting({ bucks: i }) }),
      ),
    );
    expect(made.map((r) => r.status)).toEqual(Array(12).fill(201));
    const ids = await Promise.all(made.map(async (r) => ((await r.json()) as Post).id));
    for (const [i, id] of ids.entries()) expect((await rows(id)).map((r) => r.bucks)).toEqual([i]);
  });
});
