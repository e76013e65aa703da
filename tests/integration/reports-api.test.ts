import { describe, expect, it } from "vitest";
import { newClub } from "#tests/fixtures/clubs";
import { createStaff, setClubRole } from "#tests/fixtures/moderation";
import { createPost } from "~/models/posts/post.server";
import * as decideRoute from "~/routes/api.moderation.reports.$id";
import * as queueRoute from "~/routes/api.moderation.reports";
import * as reportsRoute from "~/routes/api.reports";
import { call, createMember, makeRequest } from "../fixtures/members";
import { count, postInput } from "../fixtures/posts";

type Member = Awaited<ReturnType<typeof createMember>>;
const noPreview = { preview: async () => null };

const report = (who: Member | null, json: unknown) => call(reportsRoute.action, makeRequest("/api/reports", { json, cookie: who?.cookie }));
const queue = (who: Member | null, query = "") =>
  call(queueRoute.loader, makeRequest(`/api/moderation/reports${query}`, { cookie: who?.cookie }));
const decide = (who: Member | null, id: number | string, json: unknown) =>
  call(decideRoute.action, makeRequest(`/api/moderation/reports/${id}`, { json, cookie: who?.cookie }), { id: String(id) });

const tableCounts = async () => ({
  reports: await count(`SELECT count(*) AS n FROM reports`),
  cases: await count(`SELECT count(*) AS n FROM moderation_cases WHERE status = 'open'`),
  log: await count(`SELECT count(*) AS n FROM moderation_log`),
});

describe("POST /api/reports (CONTRACT.md §8 Reports)", () => {
  it("201 {id}; 401 signed out; 400 bad input; 404 missing; 409 again; refusals store nothing", async () => {
    const author = await createMember();
    const reporter = await createMember();
    const post = await createPost(author, postInput(), noPreview);
    const body = { targetType: "post", targetId: post.id, reason: "spam", details: "Sells tags" };

    const before = await tableCounts();
    expect((await report(null, body)).status).toBe(401);
    const bad = await report(reporter, { ...body, reason: "rude" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fieldErrors.reason).toBeDefined();
    expect((await report(reporter, { ...body, details: "x".repeat(1001) })).status).toBe(400);
    expect((await report(author, body)).status).toBe(400);
    expect((await report(reporter, { ...body, targetId: 999_999 })).status).toBe(404);
    expect(await tableCounts()).toEqual(before);

    const created = await report(reporter, body);
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ id: expect.any(Number) });
    const again = await report(reporter, body);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe("You have already reported this");
  });
});

describe("GET /api/moderation/reports and POST /api/moderation/reports/{id} (CONTRACT.md §8 Queue)", () => {
  it("lists cases for staff without the reporter; club staff their club's; 403 members, 401 visitors; decides with 200/400/403/409", async () => {
    const owner = await createMember();
    const club = await newClub(owner, { isPrivate: false });
    const clubAdmin = await createMember();
    await setClubRole(club.id, clubAdmin.id, "admin");
    const author = await createMember();
    await setClubRole(club.id, author.id, "member");
    const reporter = await createMember({ displayName: "Hidden Reporter" });
    const moderator = await createStaff("moderator");
    const inClub = await createPost(author, postInput({ clubId: club.id, title: "Club post" }), noPreview);
    const outside = await createPost(author, postInput({ title: "Outside post" }), noPreview);
    for (const p of [inClub, outside])
      expect((await report(reporter, { targetType: "post", targetId: p.id, reason: "spam" })).status).toBe(201);

    expect((await queue(null)).status).toBe(401);
    expect((await queue(author)).status).toBe(403);
    expect((await queue(moderator, "?status=maybe")).status).toBe(400);
    const all = await queue(moderator);
    expect(all.status).toBe(200);
    const text = await all.text();
    expect(text).not.toContain(reporter.username);
    expect(text).not.toContain("Hidden Reporter");
    const entries = JSON.parse(text) as { id: number; targetId: number; reports: object[]; status: string }[];
    expect(entries.map((e) => e.targetId)).toEqual(expect.arrayContaining([inClub.id, outside.id]));
    expect(entries[0]).toMatchObject({ targetType: "post", status: "open", reports: [{ reason: "spam", details: null }] });
    const clubOnly = (await (await queue(clubAdmin)).json()) as typeof entries;
    expect(clubOnly.map((e) => e.targetId)).toEqual([inClub.id]);

    const clubCase = entries.find((e) => e.targetId === inClub.id)!;
    const outsideCase = entries.find((e) => e.targetId === outside.id)!;
    const before = await tableCounts();
    expect((await decide(null, clubCase.id, { action: "dismiss" })).status).toBe(401);
    expect((await decide(author, clubCase.id, { action: "dismiss" })).status).toBe(403);
    expect((await decide(clubAdmin, outsideCase.id, { action: "dismiss" })).status).toBe(403);
    expect((await decide(clubAdmin, clubCase.id, { action: "remove" })).status).toBe(400);
    expect((await decide(clubAdmin, clubCase.id, { action: "ban" })).status).toBe(400);
    expect((await decide(moderator, 999_999, { action: "dismiss" })).status).toBe(404);
    expect(await tableCounts()).toEqual(before);

    const removed = await decide(clubAdmin, clubCase.id, { action: "remove", reason: "Selling tags" });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ id: clubCase.id, status: "closed" });
    expect((await decide(moderator, clubCase.id, { action: "dismiss" })).status).toBe(409);
    expect((await decide(moderator, outsideCase.id, { action: "dismiss" })).status).toBe(200);
    const closed = (await (await queue(moderator, "?status=closed")).json()) as { id: number; state: string }[];
    expect(closed.map((e) => e.id)).toEqual([outsideCase.id, clubCase.id]);
    expect(closed.map((e) => e.state)).toEqual(["visible", "removed"]);
  });
});
