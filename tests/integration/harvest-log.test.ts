import { describe, expect, it } from "vitest";
import { fieldReports, posts, type FieldReportKind } from "#db/schema";
import { loader as jsonLoader } from "~/routes/api.auth.field-reports";
import { loader as csvLoader } from "~/routes/api.auth.field-reports[.]csv";
import { loader as pageLoader } from "~/routes/settings_.harvest-log/route";
import * as postsRoute from "~/routes/api.posts";
import * as postRoute from "~/routes/api.posts.$id";
import { addDays, localDate } from "~/utils/hunt-day";
import { exportAccount } from "~/models/members/account.server";
import { env } from "~/utils/env.server";
import { csvCell } from "~/web/harvest-log-csv.server";
import { db } from "~/utils/db.server";
import { call, createMember, makeRequest } from "#tests/fixtures/members";
import { addMember, makeClub } from "#tests/fixtures/posts";

/**
 * Issue 45 item 4, the harvest log (CONTRACT.md §14), through HTTP as a client calls it, on both
 * engines: GET /api/auth/field-reports?kind= and its CSV, and the account export.
 */

type Member = Awaited<ReturnType<typeof createMember>>;

/** A post with a field report, written straight to the tables (the post form's `field` is not needed for the log). */
async function report(
  author: Member,
  field: {
    kind: FieldReportKind;
    county: string;
    observedOn: string;
    rutPhase?: "pre" | "seeking" | "chasing" | "lockdown" | "post";
    bucks?: number;
    does?: number;
  },
  post: { title?: string; clubId?: number; hidden?: boolean } = {},
) {
  const [row] = await db
    .insert(posts)
    .values({
      authorId: author.id,
      clubId: post.clubId ?? null,
      type: "article",
      title: post.title ?? `A ${field.kind} in ${field.county}`,
      content: "Seen from the stand.",
      hiddenAt: post.hidden ? new Date() : null,
    })
    .returning({ id: posts.id });
  await db.insert(fieldReports).values({ postId: row!.id, authorId: author.id, ...field });
  return row!.id;
}

async function items(member: Member | null, query = "") {
  const res = await call(jsonLoader, makeRequest(`/api/auth/field-reports${query}`, { cookie: member?.cookie }));
  return {
    res,
    body: (await res.json()) as { items?: Array<Record<string, unknown>>; error?: string; fieldErrors?: Record<string, string[]> },
  };
}

/** RFC 4180, read back strictly: quoted cells with doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ",") endCell();
    else if (c === "\r" && text[i + 1] === "\n") {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += c;
  }
  expect(cell, "the file ends with CRLF").toBe("");
  return rows;
}

describe("GET /api/auth/field-reports", () => {
  it("is 401 signed out, in the error shape, for the JSON and the CSV", async () => {
    const { res, body } = await items(null);
    expect(res.status).toBe(401);
    expect(body.error).toEqual(expect.any(String));
    const csv = await call(csvLoader, makeRequest("/api/auth/field-reports.csv"));
    expect(csv.status).toBe(401);
    expect(((await csv.json()) as { error: string }).error).toEqual(expect.any(String));
  });

  it("lists the owner's own reports (a private club's and a hidden post's too), newest day seen first; nobody else's", async () => {
    const owner = await createMember();
    const other = await createMember();
    const club = await makeClub(other.id, { isPrivate: true, name: "Back Forty" });
    await addMember(club, owner.id);
    const older = await report(owner, { kind: "sighting", county: "18089", observedOn: "2026-11-02", bucks: 1, does: 3 });
    const inClub = await report(
      owner,
      { kind: "harvest", county: "55025", observedOn: "2026-11-20", rutPhase: "chasing", bucks: 1 },
      { clubId: club },
    );
    const hidden = await report(
      owner,
      { kind: "rut_sign", county: "41045", observedOn: "2026-11-10", rutPhase: "seeking" },
      { hidden: true },
    );
    const othersOwn = await report(other, { kind: "harvest", county: "18089", observedOn: "2026-11-21" }, { clubId: club });

    const { res, body } = await items(owner);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(body.items!.map((i) => i.postId)).toEqual([inClub, hidden, older]);
    expect(body.items![0]).toEqual({
      postId: inClub,
      kind: "harvest",
      county: { fips: "55025", name: "Dane", state: "WI" },
      observedOn: "2026-11-20",
      rutPhase: "chasing",
      bucks: 1,
      does: null,
      post: { id: inClub, title: "A harvest in 55025", url: `/post/${inClub}` },
    });

    // The other member, a member of the same private club, sees only their own.
    expect((await items(other)).body.items!.map((i) => i.postId)).toEqual([othersOwn]);
    // A member with none has an empty log.
    expect((await items(await createMember())).body.items).toEqual([]);
  });

  it("filters by kind; an unknown kind is a 400 naming the kinds", async () => {
    const owner = await createMember();
    const a = await report(owner, { kind: "harvest", county: "18089", observedOn: "2026-11-01" });
    await report(owner, { kind: "sighting", county: "18089", observedOn: "2026-11-03" });
    const b = await report(owner, { kind: "harvest", county: "18089", observedOn: "2026-11-05" });
    expect((await items(owner, "?kind=harvest")).body.items!.map((i) => i.postId)).toEqual([b, a]);
    expect((await items(owner, "?kind=")).body.items).toHaveLength(3);
    const bad = await items(owner, "?kind=trophy");
    expect(bad.res.status).toBe(400);
    expect(bad.body.error).toBe("Kind must be one of sighting, rut_sign, harvest");
    expect(bad.body.fieldErrors).toEqual({ kind: ["Kind must be one of sighting, rut_sign, harvest"] });
    const badCsv = await call(csvLoader, makeRequest("/api/auth/field-reports.csv?kind=trophy", { cookie: owner.cookie }));
    expect(badCsv.status).toBe(400);
  });
});

describe("GET /api/auth/field-reports.csv", () => {
  it("is an attachment with CONTRACT §14's header row, the owner's rows in its columns and absolute post addresses", async () => {
    const owner = await createMember();
    const other = await createMember();
    const quoted = await report(owner, { kind: "harvest", county: "18089", observedOn: "2026-11-22", rutPhase: "post", bucks: 1, does: 0 });
    const formula = await report(owner, { kind: "sighting", county: "55025", observedOn: "2026-11-21", does: 4 });
    const plus = await report(owner, { kind: "rut_sign", county: "41045", observedOn: "2026-11-20", rutPhase: "pre" });
    await report(other, { kind: "harvest", county: "18089", observedOn: "2026-11-23" }, { title: "Not the owner's" });

    const res = await call(csvLoader, makeRequest("/api/auth/field-reports.csv", { cookie: owner.cookie }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(res.headers.get("Content-Disposition")).toMatch(
      new RegExp(`^attachment; filename="whitetail-pulse-harvest-log-${owner.username}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const text = await res.text();
    expect(text.split("\r\n")[0]).toBe("date,county,state,kind,rut phase,bucks,does,post URL");
    expect(text.endsWith("\r\n")).toBe(true);

    const origin = env.PUBLIC_URL ?? "http://localhost:3000";
    const rows = parseCsv(text);
    expect(rows.slice(1)).toEqual([
      ["2026-11-22", "Lake", "IN", "Harvest", "post-rut", "1", "0", `${origin}/post/${quoted}`],
      ["2026-11-21", "Dane", "WI", "Sighting", "", "", "4", `${origin}/post/${formula}`],
      ["2026-11-20", "Malheur", "OR", "Rut sign", "pre-rut", "", "", `${origin}/post/${plus}`],
    ]);
  });

  it("writes every cell RFC 4180's way and never as a formula a spreadsheet would run", () => {
    expect(csvCell('The "big one", finally\nafter three seasons')).toBe('"The ""big one"", finally\nafter three seasons"');
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csvCell("+1 scrape")).toBe("'+1 scrape");
    expect(csvCell("-2 rubs")).toBe("'-2 rubs");
    expect(csvCell("@SUM(1,2)")).toBe(`"'@SUM(1,2)"`);
    expect(csvCell("\tTabbed")).toBe("'\tTabbed");
    expect(csvCell(-2)).toBe("-2");
    expect(csvCell(null)).toBe("");
    expect(csvCell("Lake")).toBe("Lake");
  });
});

describe("GET /api/auth/field-reports.csv?kind=", () => {
  it("filters by kind", async () => {
    const owner = await createMember();
    const quoted = await report(owner, { kind: "harvest", county: "18089", observedOn: "2026-11-22" });
    await report(owner, { kind: "sighting", county: "55025", observedOn: "2026-11-21" });
    const origin = env.PUBLIC_URL ?? "http://localhost:3000";
    const harvests = parseCsv(
      await (await call(csvLoader, makeRequest("/api/auth/field-reports.csv?kind=harvest", { cookie: owner.cookie }))).text(),
    );
    expect(harvests.map((r) => r[7])).toEqual(["post URL", `${origin}/post/${quoted}`]);
  });
});

describe("the account export", () => {
  it("holds the member's field reports, private club's included, and nobody else's", async () => {
    const owner = await createMember();
    const other = await createMember();
    const club = await makeClub(owner.id, { isPrivate: true });
    const mine = await report(
      owner,
      { kind: "harvest", county: "55025", observedOn: "2026-11-20", rutPhase: "lockdown", bucks: 1, does: 0 },
      { clubId: club },
    );
    await report(other, { kind: "sighting", county: "18089", observedOn: "2026-11-21" });
    const data = await exportAccount(owner);
    expect(data.fieldReports).toEqual([
      {
        postId: mine,
        kind: "harvest",
        county: { fips: "55025", name: "Dane", state: "WI" },
        observedOn: "2026-11-20",
        rutPhase: "lockdown",
        bucks: 1,
        does: 0,
        createdAt: expect.any(Date),
      },
    ]);
  });
});

describe("/settings/harvest-log", () => {
  it("is the owner's list; a visitor gets the sign-in notice (401), an unknown kind a 400 with the reason", async () => {
    const owner = await createMember();
    const id = await report(owner, { kind: "harvest", county: "18089", observedOn: "2026-11-12", bucks: 1 });
    const page = async (path: string, member: Member | null) => {
      const res = await call(pageLoader, makeRequest(path, { cookie: member?.cookie }));
      return {
        status: res.status,
        body: (await res.json()) as {
          signedIn: boolean;
          kind: string | null;
          kindError: string | null;
          reports: Array<{ postId: number }>;
        },
      };
    };
    expect(await page("/settings/harvest-log", null)).toEqual({
      status: 401,
      body: { signedIn: false, kind: null, kindError: null, reports: [] },
    });
    const own = await page("/settings/harvest-log?kind=harvest", owner);
    expect(own.status).toBe(200);
    expect(own.body.reports.map((r) => r.postId)).toEqual([id]);
    expect((await page("/settings/harvest-log?kind=sighting", owner)).body.reports).toEqual([]);
    expect((await page("/settings/harvest-log", await createMember())).body.reports).toEqual([]);
    const bad = await page("/settings/harvest-log?kind=trophy", owner);
    expect(bad).toEqual({
      status: 400,
      body: { signedIn: true, kind: null, kindError: "Kind must be one of sighting, rut_sign, harvest", reports: [] },
    });
  });
});

describe("the harvest log follows the post form's field report", () => {
  it("lists a report filed through POST /api/posts, follows its edit, and drops it when it is removed", async () => {
    const owner = await createMember();
    const observedOn = addDays(localDate(Date.now(), "America/Chicago"), -2);
    const created = await call(
      postsRoute.action,
      makeRequest("/api/posts", {
        json: {
          title: "Eight pointer at first light",
          content: "Came in on the scrape line at 7:05.",
          type: "article",
          field: { kind: "harvest", county: "18089", observedOn, rutPhase: "chasing", bucks: 1 },
        },
        cookie: owner.cookie,
      }),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect((await items(owner, "?kind=harvest")).body.items).toEqual([
      {
        postId: id,
        kind: "harvest",
        county: { fips: "18089", name: "Lake", state: "IN" },
        observedOn,
        rutPhase: "chasing",
        bucks: 1,
        does: null,
        post: { id, title: "Eight pointer at first light", url: `/post/${id}` },
      },
    ]);

    const put = async (json: Record<string, unknown>) => {
      const body = { title: "Eight pointer at first light", content: "Came in on the scrape line at 7:05.", type: "article", ...json };
      const res = await call(postRoute.action, makeRequest(`/api/posts/${id}`, { method: "PUT", json: body, cookie: owner.cookie }), {
        id: String(id),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return res;
    };
    expect((await put({ field: { kind: "sighting", county: "55025", observedOn, does: 2 } })).status).toBe(200);
    expect((await items(owner, "?kind=harvest")).body.items).toEqual([]);
    expect((await items(owner)).body.items!.map((i) => [i.kind, (i.county as { name: string }).name, i.does])).toEqual([
      ["sighting", "Dane", 2],
    ]);
    expect((await put({ field: null })).status).toBe(200);
    expect((await items(owner)).body.items).toEqual([]);
  });
});
