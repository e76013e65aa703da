import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { installDataVersion, readDataVersion } from "./data-version.server";

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
