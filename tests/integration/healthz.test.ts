import { describe, expect, it } from "vitest";
import { loader } from "~/routes/healthz";
import { databaseEngine } from "~/utils/db.server";
import { validatedPath } from "~/server/conditional.server";
import { call, makeRequest } from "#tests/fixtures/members";

describe("GET /healthz", () => {
  it("reads the database and answers 200 {ok:true}, not stored, with no cookie", async () => {
    const res = await call(loader, makeRequest("/healthz", { cookie: "__session=whatever" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, database: databaseEngine() });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });

  it("does no session work at the HTTP edge (no page validator, so no session lookup)", () => {
    expect(validatedPath("/healthz")).toBe(false);
    expect(validatedPath("/")).toBe(true);
  });
});
