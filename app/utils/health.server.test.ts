import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { checkHealth, healthResponse, HEALTH_PROBE } from "./health.server";

const withUsers = () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY)");
  return db;
};
const reading = (db: Database.Database) => async () => db.prepare(HEALTH_PROBE).all();

describe("health (CONTRACT.md §6, §9)", () => {
  it("is ok when the database answers a read, and says which engine answers", async () => {
    const res = healthResponse(await checkHealth("sqlite", reading(withUsers())));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, database: "sqlite" });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
  });

  it("is 503 with a JSON reason when the database cannot be read", async () => {
    const closed = withUsers();
    closed.close();
    const res = healthResponse(await checkHealth("sqlite", reading(closed)));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, database: "sqlite", reason: expect.stringMatching(/^database: .*not open/) });
    const empty = new Database(":memory:"); // no tables: not this site's database
    expect(await checkHealth("sqlite", reading(empty))).toEqual({
      ok: false,
      database: "sqlite",
      reason: expect.stringMatching(/no such table: users/),
    });
  });

  it("is 503 while the process shuts down, so a proxy stops sending to it", async () => {
    expect(await checkHealth("postgres", reading(withUsers()), true)).toEqual({ ok: false, database: "postgres", reason: "shutting down" });
  });
});
