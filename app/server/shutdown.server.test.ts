import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { captureLog } from "#tests/fixtures/log";
import { isDraining, requestLog } from "./request-log.server";
import { openSqlite } from "~/utils/db/db-sqlite.server";
import { shutDown } from "./shutdown.server";

describe("shutDown", () => {
  const log = captureLog();
  afterAll(() => log.restore());

  it("waits for the request in flight, checkpoints the WAL, closes the database and exits 0", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-shutdown-"));
    const file = path.join(dir, "app.db");
    // The engine the server runs on (WAL mode, migrated), closed through its own close.
    const engine = openSqlite(file);
    const sqlite = engine.sqlite;
    sqlite.exec("CREATE TABLE t (x)");
    // Keep the pages in the WAL until the shutdown's checkpoint.
    sqlite.pragma("wal_autocheckpoint = 0");
    let answer: (() => void) | undefined;
    const server = http.createServer((req, res) =>
      requestLog(req, res, () => {
        answer = () => {
          sqlite.prepare("INSERT INTO t VALUES (?)").run("late write");
          res.end("done");
        };
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const reply = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`).then((r) => r.text());
    await vi.waitFor(() => expect(answer).toBeDefined());

    const exit = vi.fn();
    const stopJobs = vi.fn();
    const stopping = shutDown("SIGTERM", { closeDatabase: engine.close, stopJobs, exit, graceMs: 5_000 });
    expect(isDraining()).toBe(true);
    expect(stopJobs).toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 100));
    expect(exit).not.toHaveBeenCalled(); // the request is still being served
    expect(sqlite.open).toBe(true);
    answer!();
    expect(await reply).toBe("done");
    await stopping;
    expect(exit).toHaveBeenCalledWith(0);
    expect(sqlite.open).toBe(false);
    // Checkpointed and truncated: the database file alone holds every write.
    expect(fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0).toBe(0);
    const reopened = new Database(file, { readonly: true });
    expect(reopened.prepare("SELECT x FROM t").all()).toEqual([{ x: "late write" }]);
    reopened.close();
    server.close();
    expect(log.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(["shutting down", "stopped"]));
  });
});
