import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import * as pgSchema from "#db/schema-pg";
import { NO_POSTGRES, pgAdminUrl, pgQuery, relationCount, testDatabases, withPgClient } from "#tests/fixtures/pg-database";
import { integrityOf, listBackups } from "~/utils/operations/backup.server";
import { migratePostgres } from "~/utils/db/db-postgres.server";

/**
 * `npm run backup` and `npm run restore -- FILE` as an operator runs them (CONTRACT.md §6 and §9):
 * on SQLite against a database another process keeps writing to, and on PostgreSQL (databases of
 * their own made from PG_TEST_URL, or TEST_DATABASE_URL on the vitest run on PostgreSQL) with
 * `pg_dump` / `pg_restore`. The SQLite cases make their own files and run the scripts with
 * DATABASE_URL unset, so they test the SQLite path on either run.
 */
const root = path.resolve(__dirname, "../..");

function run(script: "backup" | "restore", args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, `scripts/${script}.ts`), ...args], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), DATABASE_URL: "", ...env },
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

/* ------------------------------------------------------------------------------------------------ */
/* PostgreSQL                                                                                        */
/* ------------------------------------------------------------------------------------------------ */

const databases = testDatabases("whitetail_backup");
/** An empty database of this file's own; dropped after the file. `password` goes into the URL (the test cluster trusts every local connection). */
const emptyDatabase = (password?: string) => databases.make(password);
/** A migrated site with members, posts (ids with gaps: two were deleted) and a comment. */
async function pgSite(password?: string): Promise<string> {
  const url = await emptyDatabase(password);
  await withPgClient(url, async (client) => {
    await migratePostgres(client);
    await client.query(`INSERT INTO users (username, display_name, email, password_hash) VALUES
      ('Ada', 'Ada', 'ada@example.org', 'h1'), ('bo', 'Bo', 'bo@example.org', 'h2'), ('cy', 'Cy', 'cy@example.org', 'h3')`);
    await client.query(`DELETE FROM users WHERE username = 'bo'`);
    await client.query(`INSERT INTO posts (author_id, type, title, content, tags) VALUES
      (1, 'text', 'Antlers at dawn', 'Two bucks sparring', '["rut"]'),
      (1, 'text', 'Gone', 'deleted', NULL),
      (3, 'text', 'Tracks', 'Fresh tracks in the snow', '["tracking"]'),
      (3, 'text', 'Gone too', 'deleted', NULL),
      (1, 'text', 'Shed hunting', 'Found a shed antler by the creek', '["sheds","antlers"]')`);
    await client.query(`DELETE FROM posts WHERE title LIKE 'Gone%'`);
    await client.query(`INSERT INTO comments (post_id, author_id, content) VALUES (5, 3, 'Nice find')`);
  });
  return url;
}

const postsOf = (url: string) => pgQuery(url, "SELECT id, author_id, title, content, tags, created_at FROM posts ORDER BY id");
const usersOf = (url: string) => pgQuery(url, "SELECT id, username, email FROM users ORDER BY id");
function pgBackupDir() {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-pg-backup-")), "backups");
}

describe.skipIf(!pgAdminUrl)(
  `npm run backup / npm run restore on PostgreSQL${pgAdminUrl ? "" : ` (skipped: ${NO_POSTGRES})`}`,
  { timeout: 180_000 },
  () => {
    afterAll(() => databases.dropAll());

    it("backs up a site with rows to a pg_dump custom-format .dump, 0600, keeping the newest BACKUP_KEEP of either engine's backups", async () => {
      const url = await pgSite("s3cret-pw");
      const dir = pgBackupDir();
      fs.mkdirSync(dir, { recursive: true });
      // What a site that moved from SQLite has left in BACKUP_DIR: an older SQLite backup, and a file of the operator's.
      fs.writeFileSync(path.join(dir, "app-20260101T000000000Z.db"), "an older SQLite backup");
      fs.writeFileSync(path.join(dir, "notes.txt"), "mine");
      const env = { DATABASE_URL: url, BACKUP_DIR: dir, BACKUP_KEEP: "2" };
      const runs = [];
      for (let i = 0; i < 3; i++) {
        const result = run("backup", [], env);
        expect(result.code, result.err).toBe(0);
        runs.push(result);
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(runs[0]!.out).toMatch(/^Backed up PostgreSQL 127\.0\.0\.1:\d+\/whitetail_backup_\S+ to \S+\/app-\d{8}T\d{9}Z\.dump\n$/);
      expect(runs[1]!.out).toMatch(/\.dump \(removed 1 older\)/);
      expect(runs[2]!.out).toMatch(/\.dump \(removed 1 older\)/);
      for (const r of runs) expect(r.out + r.err).not.toContain("s3cret-pw");
      // The newest two remain: the SQLite backup and the first dump were the oldest.
      const kept = listBackups(dir);
      expect(kept.map((f) => path.basename(f))).toEqual(runs.slice(1).map((r) => path.basename(/ to (\S+)/.exec(r.out)![1]!)));
      expect(fs.existsSync(path.join(dir, "notes.txt"))).toBe(true);
      for (const file of kept) {
        expect(fs.readFileSync(file).subarray(0, 5).toString("latin1")).toBe("PGDMP");
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      }
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.readdirSync(dir).filter((f) => f.endsWith(".part"))).toEqual([]);
    });

    it("restores into an empty database: the same rows and ids, sequences that go on, the search vector and its index", async () => {
      const source = await pgSite();
      const dir = pgBackupDir();
      expect(run("backup", [], { DATABASE_URL: source, BACKUP_DIR: dir }).code).toBe(0);
      const [backup] = listBackups(dir);
      const target = await emptyDatabase();
      const done = run("restore", [backup!], { DATABASE_URL: target });
      expect(done.code, done.err).toBe(0);
      // Every table of the schema and drizzle's own migrations table; every PostgreSQL migration.
      const tables = Object.values(pgSchema).filter((value) => is(value, PgTable)).length + 1;
      const migrations = fs.readdirSync("db/migrations-pg").filter((file) => file.endsWith(".sql")).length;
      expect(done.out).toMatch(
        new RegExp(
          `^Restored \\S+\\.dump into PostgreSQL 127\\.0\\.0\\.1:\\d+/whitetail_backup_\\S+: ${tables} tables, \\d+ rows, ${migrations} migrations applied\\.`,
        ),
      );
      expect(done.out).toMatch(/public\.posts +3\n/);
      expect(done.out).toMatch(/public\.users +2\n/);

      expect(await postsOf(target)).toEqual(await postsOf(source));
      expect((await postsOf(target)).map((p) => p.id)).toEqual([1, 3, 5]);
      expect(await usersOf(target)).toEqual(await usersOf(source));
      expect(await pgQuery(target, "SELECT id, post_id, author_id, content FROM comments")).toEqual([
        { id: 1, post_id: 5, author_id: 3, content: "Nice find" },
      ]);
      // Sequences go on past the restored ids: new rows get 6 and 4, as they would have on the source.
      const [post] = await pgQuery<{ id: number }>(
        target,
        "INSERT INTO posts (author_id, type, title, content) VALUES (3, 'text', 'Doe', 'A doe and fawn') RETURNING id",
      );
      expect(post!.id).toBe(6);
      const [user] = await pgQuery<{ id: number }>(
        target,
        "INSERT INTO users (username, display_name, email, password_hash) VALUES ('dee', 'Dee', 'dee@example.org', 'h') RETURNING id",
      );
      expect(user!.id).toBe(4);
      // Usernames stay unique without regard to case (the lower() index came back).
      await expect(
        pgQuery(target, "INSERT INTO users (username, display_name, email, password_hash) VALUES ('ADA', 'x', 'x@example.org', 'h')"),
      ).rejects.toThrow(/duplicate key/);
      // Search: the stored English tsvector is there (stemmed: "antler" finds "Antlers"), for the new row too, with its GIN index.
      const found = await pgQuery<{ id: number }>(
        target,
        "SELECT id FROM posts WHERE search @@ to_tsquery('english', 'antler') ORDER BY id",
      );
      expect(found.map((r) => r.id)).toEqual([1, 5]);
      expect(await pgQuery(target, "SELECT id FROM posts WHERE search @@ to_tsquery('english', 'fawns')")).toEqual([{ id: 6 }]);
      expect(await pgQuery(target, "SELECT indexdef FROM pg_indexes WHERE indexname = 'posts_search'")).toEqual([
        { indexdef: expect.stringMatching(/USING gin \(search\)/) },
      ]);
      // The data-version triggers that tell other nodes of a write came back too.
      expect(await pgQuery(target, "SELECT count(*)::int AS n FROM pg_trigger WHERE tgname LIKE '%data_version%'")).toEqual([
        { n: expect.any(Number) },
      ]);
      expect(
        (await pgQuery<{ n: number }>(target, "SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'posts_data_version'"))[0]!.n,
      ).toBe(1);
    });

    it("refuses a database that is not empty with one line, and changes nothing in it", async () => {
      const source = await pgSite();
      const dir = pgBackupDir();
      expect(run("backup", [], { DATABASE_URL: source, BACKUP_DIR: dir }).code).toBe(0);
      const [backup] = listBackups(dir);
      // Another site's database, and one with a single table of someone else's.
      const other = await pgSite();
      await pgQuery(other, "DELETE FROM posts WHERE id = 3");
      const before = { posts: await postsOf(other), users: await usersOf(other) };
      const refused = run("restore", [backup!], { DATABASE_URL: other });
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(
        /^Restore refused: The database 127\.0\.0\.1:\d+\/whitetail_backup_\S+ is not empty \(\d+ tables, sequences or views, 1 schemas, 1 functions\): .*Nothing restored\.\n$/,
      );
      expect(refused.out).toBe("");
      expect({ posts: await postsOf(other), users: await usersOf(other) }).toEqual(before);

      const oneTable = await emptyDatabase();
      await pgQuery(oneTable, "CREATE TABLE notes (body text)");
      await pgQuery(oneTable, "INSERT INTO notes VALUES ('keep me')");
      const again = run("restore", [backup!], { DATABASE_URL: oneTable });
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/is not empty \(1 tables, sequences or views, 0 schemas, 0 functions\)/);
      expect(await pgQuery(oneTable, "SELECT body FROM notes")).toEqual([{ body: "keep me" }]);
      expect(await relationCount(oneTable)).toBe(1);
    });

    it("refuses the other engine's backup either way with one line, and writes nothing", async () => {
      const source = await pgSite();
      const dir = pgBackupDir();
      expect(run("backup", [], { DATABASE_URL: source, BACKUP_DIR: dir }).code).toBe(0);
      const [pgBackup] = listBackups(dir);
      const sqliteSite = site();
      expect(run("backup", [], sqliteSite.env).code).toBe(0);
      const [sqliteBackup] = listBackups(sqliteSite.env.BACKUP_DIR);
      const target = await emptyDatabase();

      const wrongEngine = run("restore", [sqliteBackup!], { DATABASE_URL: target });
      expect(wrongEngine).toMatchObject({
        code: 1,
        out: "",
        err: expect.stringMatching(
          /^Restore refused: \S+\.db is a SQLite backup and this site runs on PostgreSQL \(DATABASE_URL\).*Nothing restored\.\n$/,
        ),
      });
      expect(await relationCount(target)).toBe(0);

      const sqliteBefore = fs.readFileSync(sqliteSite.env.DATABASE_PATH);
      const otherWay = run("restore", [pgBackup!], sqliteSite.env);
      expect(otherWay).toMatchObject({
        code: 1,
        out: "",
        err: expect.stringMatching(
          /^Restore refused: \S+\.dump is a PostgreSQL backup \(pg_dump\) and this site runs on SQLite \(DATABASE_PATH\).*Nothing restored\.\n$/,
        ),
      });
      expect(fs.readFileSync(sqliteSite.env.DATABASE_PATH).equals(sqliteBefore)).toBe(true);
      expect(fs.readdirSync(sqliteSite.dir).filter((f) => f.includes("before-restore"))).toEqual([]);
    });

    it("says what is wrong when pg_dump is missing or the server cannot be reached, and never prints the password", async () => {
      const dir = pgBackupDir();
      const empty = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-no-pg-bin-"));
      const url = await pgSite("s3cret-pw");
      const missing = run("backup", [], { DATABASE_URL: url, BACKUP_DIR: dir, PG_BIN: empty });
      expect(missing.code).toBe(1);
      expect(missing.err).toMatch(/^Backup failed: pg_dump not found in PG_BIN .*install the PostgreSQL client tools/);
      const down = run("backup", [], { DATABASE_URL: "postgres://pulse:s3cret-pw@127.0.0.1:1/pulse", BACKUP_DIR: dir });
      expect(down.code).toBe(1);
      expect(down.err).toMatch(/^Backup failed: .*ECONNREFUSED/);
      for (const r of [missing, down]) expect(r.out + r.err).not.toContain("s3cret-pw");
      expect(listBackups(dir)).toEqual([]);
    });
  },
);
