import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { integrityOf, listBackups } from "~/utils/backup.server";

/**
 * `npm run backup` and `npm run restore -- FILE` as an operator runs them (CONTRACT.md §6), against a
 * database another process keeps writing to.
 */
const root = path.resolve(__dirname, "../..");

function run(script: "backup" | "restore", args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, `scripts/${script}.ts`), ...args], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** A process that writes a row every few milliseconds until killed, as a busy site would. */
function writer(file: string): ChildProcess {
  const source = `
    const Database = require("better-sqlite3");
    const db = new Database(${JSON.stringify(file)});
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    const insert = db.prepare("INSERT INTO posts (body) VALUES (?)");
    let n = 0;
    setInterval(() => { for (let i = 0; i < 20; i++) insert.run("row " + n++); }, 2);
    process.stdout.write("writing\\n");
  `;
  return spawn(process.execPath, ["-e", source], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
}

const started = (child: ChildProcess) => new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));

const count = (file: string) => {
  const db = new Database(file, { readonly: true });
  const { n } = db.prepare("SELECT count(*) AS n FROM posts").get() as { n: number };
  db.close();
  return n;
};

let children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children) child.kill();
  children = [];
});

function site() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-commands-"));
  const env = { DATABASE_PATH: path.join(dir, "app.db"), BACKUP_DIR: path.join(dir, "backups"), UPLOAD_DIR: path.join(dir, "uploads") };
  const db = new Database(env.DATABASE_PATH);
  db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE __drizzle_migrations (id INTEGER PRIMARY KEY); CREATE TABLE posts (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  db.close();
  return { dir, env };
}

describe("npm run backup / npm run restore", { timeout: 60_000 }, () => {
  it("backs up while another process writes: each copy is whole and consistent", async () => {
    const { env } = site();
    const busy = writer(env.DATABASE_PATH);
    children.push(busy);
    await started(busy);
    const first = run("backup", [], { ...env, BACKUP_KEEP: "5" });
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/^Backed up .*app\.db to .*app-\d{8}T\d{9}Z\.db/);
    await new Promise((r) => setTimeout(r, 200));
    const second = run("backup", [], { ...env, BACKUP_KEEP: "5" });
    expect(second.code, second.err).toBe(0);
    const files = listBackups(env.BACKUP_DIR);
    expect(files).toHaveLength(2);
    for (const file of files) {
      expect(integrityOf(file)).toBe("ok");
      // Consistent: the ids are exactly 1..n, no row half-copied or missing in the middle.
      const db = new Database(file, { readonly: true });
      const { n, top } = db.prepare("SELECT count(*) AS n, max(id) AS top FROM posts").get() as { n: number; top: number };
      db.close();
      expect(n).toBe(top);
    }
    expect(count(files[1]!)).toBeGreaterThan(count(files[0]!));
  });

  it("restore refuses while the site runs, then restores into DATABASE_PATH once it is stopped", async () => {
    const { env } = site();
    const busy = writer(env.DATABASE_PATH);
    children.push(busy);
    await started(busy);
    await new Promise((r) => setTimeout(r, 100));
    expect(run("backup", [], env).code).toBe(0);
    const [backup] = listBackups(env.BACKUP_DIR);
    const refused = run("restore", [backup!], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/Restore refused: The site is running on .*stop every server process first/);
    busy.kill();
    await stopped(busy);
    const done = run("restore", [backup!], env);
    expect(done.code, done.err).toBe(0);
    expect(done.out).toMatch(/Restored .* into .*app\.db\. The database it replaced is kept as .*before-restore-/);
    expect(count(env.DATABASE_PATH)).toBe(count(backup!));
    expect(integrityOf(env.DATABASE_PATH)).toBe("ok");
  });

  it("explains how to call them, and refuses a missing database or file", () => {
    const { env, dir } = site();
    expect(run("restore", [], env)).toMatchObject({ code: 2, err: expect.stringMatching(/Usage: npm run restore -- <backup file>/) });
    expect(run("restore", [path.join(dir, "nope.db")], env)).toMatchObject({ code: 1, err: expect.stringMatching(/No such backup/) });
    expect(run("backup", [], { ...env, DATABASE_PATH: path.join(dir, "absent.db") })).toMatchObject({
      code: 1,
      err: expect.stringMatching(/No database at .*absent\.db/),
    });
  });
});
