import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { checkHealth, healthResponse } from "./health.server";

const withUsers = () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY)");
  return db;
};

describe("health (CONTRACT.md §6)", () => {
  it("is ok when the database answers a read", async () => {
    const res = healthResponse(checkHealth(withUsers()));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("is 503 with a JSON reason when the database cannot be read", async () => {
    const closed = withUsers();
    closed.close();
    const res = healthResponse(checkHealth(closed));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, reason: expect.stringMatching(/^database: .*not open/) });
    const empty = new Database(":memory:"); // no tables: not this site's database
    expect(checkHealth(empty)).toEqual({ ok: false, reason: expect.stringMatching(/no such table: users/) });
  });

  it("is 503 while the process shuts down, so a proxy stops sending to it", () => {
    expect(checkHealth(withUsers(), true)).toEqual({ ok: false, reason: "shutting down" });
  });
});
