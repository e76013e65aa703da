import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { installDataVersion, pgTriggersAfter, pgTriggerStatements, pgTriggersWanted, readDataVersion } from "./data-version.server";

const OLD_BUMP = "BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END";

describe("installDataVersion (SQLite)", () => {
  it("leaves delivery marks and the site's keys uncounted, and remakes triggers an earlier start made otherwise", () => {
    const sqlite = new Database(":memory:");
    sqlite.exec(
      "CREATE TABLE notifications (id INTEGER PRIMARY KEY, read_at INTEGER, sent_at INTEGER); CREATE TABLE site_keys (name TEXT, value TEXT);" +
        "CREATE TABLE data_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL); INSERT INTO data_version VALUES (1, 0);" +
        // As the start before this change left them: every update of notifications, and site_keys, counted.
        `CREATE TRIGGER "data_version_notifications_update" AFTER UPDATE ON "notifications" ${OLD_BUMP};` +
        `CREATE TRIGGER "data_version_site_keys_insert" AFTER INSERT ON "site_keys" ${OLD_BUMP};`,
    );
    installDataVersion(sqlite);
    const triggers = () => sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all();
    const installed = triggers();
    installDataVersion(sqlite);
    expect(triggers(), "a second start changes nothing").toEqual(installed);

    sqlite.exec("INSERT INTO notifications (id) VALUES (1)");
    const version = readDataVersion(sqlite);
    sqlite.exec("UPDATE notifications SET sent_at = 5");
    expect(readDataVersion(sqlite), "marked sent").toBe(version);
    sqlite.exec("INSERT INTO site_keys VALUES ('vapid', 'x')");
    expect(readDataVersion(sqlite), "a site key").toBe(version);
    sqlite.exec("UPDATE notifications SET read_at = 5");
    expect(readDataVersion(sqlite), "read: the bell changes").toBe(version + 1);
  });
});

describe("PostgreSQL's data-version triggers, written from the same lists (npm run db:generate)", () => {
  const had = pgTriggersAfter([
    `CREATE TRIGGER "posts_data_version" AFTER INSERT OR UPDATE OR DELETE ON "posts" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();`,
    `CREATE TRIGGER "sessions_data_version" AFTER INSERT OR DELETE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "sessions_data_version_update" AFTER UPDATE OF "id", "user_id" ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();`,
    `CREATE TRIGGER "site_keys_data_version" AFTER INSERT OR UPDATE OR DELETE ON "site_keys" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();`,
    `CREATE TRIGGER "gone_data_version" AFTER INSERT OR UPDATE OR DELETE ON "gone" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();
DROP TABLE "gone";`,
  ]);
  const tables = [
    { name: "posts", columns: ["id", "title"] },
    { name: "sessions", columns: ["id", "user_id", "last_seen_at", "expires_at"] },
    { name: "site_keys", columns: ["name", "value"] },
  ];

  it("reads what the migrations leave, a dropped table's triggers gone with it", () => {
    expect([...had.keys()]).toEqual([
      "posts_data_version",
      "sessions_data_version",
      "sessions_data_version_update",
      "site_keys_data_version",
    ]);
  });

  it("writes nothing when the migrations match the lists", () => {
    const matching = new Map(had);
    matching.delete("site_keys_data_version");
    expect(pgTriggerStatements(matching, pgTriggersWanted(tables))).toEqual([]);
  });

  it("counts a new table, leaves an uncounted one, and remakes a listed table's update trigger when it gains a column", () => {
    const grown = [
      ...tables.map((t) => (t.name === "sessions" ? { ...t, columns: [...t.columns, "device"] } : t)),
      { name: "trails", columns: ["id"] },
      { name: "job_runs", columns: ["name"] },
    ];
    expect(pgTriggerStatements(had, pgTriggersWanted(grown))).toEqual([
      'DROP TRIGGER "sessions_data_version_update" ON "sessions";',
      'DROP TRIGGER "site_keys_data_version" ON "site_keys";',
      'CREATE TRIGGER "sessions_data_version_update" AFTER UPDATE OF "id", "user_id", "device" ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();',
      'CREATE TRIGGER "trails_data_version" AFTER INSERT OR UPDATE OR DELETE ON "trails" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();',
    ]);
  });
});
