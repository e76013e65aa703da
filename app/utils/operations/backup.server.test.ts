import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3rver } from "#tests/fixtures/media";
import { NO_POSTGRES, pgAdminUrl, pgQuery, relationCount, testDatabases, withPgClient } from "#tests/fixtures/pg-database";
import { findPostgresTool, toolConnection } from "./backup-postgres.server";
import {
  backupDatabase,
  backupFormat,
  backupName,
  backupPostgres,
  beyondNewest,
  copyToBucket,
  databaseInUse,
  integrityOf,
  listBackups,
  pruneBackups,
  restoreBackup,
  restorePostgresBackup,
  scheduleBackups,
} from "./backup.server";
import { migratePostgres } from "../db/db-postgres.server";
import { parseEnv } from "../env.server";
import { createS3Storage } from "../media/storage.server";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-backup-"));

/** A database shaped like the site's (a migrations table) with `rows` rows, in WAL mode. */
function liveDatabase(file: string, rows = 3) {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE __drizzle_migrations (id INTEGER PRIMARY KEY); CREATE TABLE posts (id INTEGER PRIMARY KEY, body TEXT)");
  const insert = db.prepare("INSERT INTO posts (body) VALUES (?)");
  for (let i = 0; i < rows; i++) insert.run(`post ${i}`);
  return db;
}

const count = (file: string) => {
  const db = new Database(file, { readonly: true });
  const { n } = db.prepare("SELECT count(*) AS n FROM posts").get() as { n: number };
  db.close();
  return n;
};

describe("backupDatabase", () => {
  it("writes a timestamped, self-contained copy that passes the integrity check", async () => {
    const dir = tmp();
    const live = liveDatabase(path.join(dir, "app.db"), 5);
    const file = await backupDatabase(live, path.join(dir, "backups"), new Date("2026-11-23T07:01:02.345Z"));
    expect(path.basename(file)).toBe("app-20261123T070102345Z.db");
    expect(integrityOf(file)).toBe("ok");
    expect(count(file)).toBe(5);
    // A single file: no WAL beside it, no half-written `.part` left.
    expect(fs.readdirSync(path.join(dir, "backups"))).toEqual([path.basename(file)]);
    live.close();
  });

  it("is readable by the site's own user only, whatever the umask (security-2 N13)", async () => {
    const dir = tmp();
    const live = liveDatabase(path.join(dir, "app.db"));
    const previous = process.umask(0o022);
    try {
      // A directory it makes, and one that was already there open to everyone.
      const made = path.join(dir, "made", "backups");
      const existing = path.join(dir, "existing");
      fs.mkdirSync(existing, { mode: 0o755 });
      for (const backups of [made, existing]) {
        const file = await backupDatabase(live, backups);
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
        expect(fs.statSync(backups).mode & 0o777).toBe(0o700);
      }
    } finally {
      process.umask(previous);
      live.close();
    }
  });

  it("keeps the newest BACKUP_KEEP and leaves other files alone", async () => {
    const dir = tmp();
    const live = liveDatabase(path.join(dir, "app.db"));
    const backups = path.join(dir, "backups");
    for (let i = 0; i < 4; i++) await backupDatabase(live, backups, new Date(Date.UTC(2026, 10, 20 + i)));
    fs.writeFileSync(path.join(backups, "notes.txt"), "mine");
    expect(pruneBackups(backups, 2).map((f) => path.basename(f))).toEqual([
      backupName(new Date(Date.UTC(2026, 10, 20))),
      backupName(new Date(Date.UTC(2026, 10, 21))),
    ]);
    expect(listBackups(backups).map((f) => path.basename(f))).toEqual([
      backupName(new Date(Date.UTC(2026, 10, 22))),
      backupName(new Date(Date.UTC(2026, 10, 23))),
    ]);
    expect(fs.existsSync(path.join(backups, "notes.txt"))).toBe(true);
    live.close();
  });
});

describe("the keep-N rule and the file formats, for both engines", () => {
  it("beyondNewest: one rule for paths and bucket keys, .db and .dump alike, by time; other names are never counted", () => {
    const at = (day: number, kind: "db" | "dump") => backupName(new Date(Date.UTC(2026, 10, day)), kind);
    expect(at(21, "dump")).toBe("app-20261121T000000000Z.dump");
    const names = [
      `/b/${at(23, "dump")}`,
      `/b/${at(20, "db")}`,
      "/b/notes.txt",
      `/b/${at(22, "db")}`,
      `/b/${at(21, "dump")}`,
      "/b/app-x.dump",
    ];
    expect(beyondNewest(names, 2)).toEqual([`/b/${at(20, "db")}`, `/b/${at(21, "dump")}`]);
    expect(beyondNewest(names, 4)).toEqual([]);
    expect(beyondNewest([`backups/${at(21, "db")}`, `backups/${at(22, "dump")}`], 1)).toEqual([`backups/${at(21, "db")}`]);
  });

  it("pruneBackups keeps the newest BACKUP_KEEP of either engine's backups in BACKUP_DIR", () => {
    const dir = tmp();
    for (const [day, kind] of [
      [20, "db"],
      [21, "dump"],
      [22, "dump"],
      [23, "db"],
    ] as const) {
      fs.writeFileSync(path.join(dir, backupName(new Date(Date.UTC(2026, 10, day)), kind)), "x");
    }
    fs.writeFileSync(path.join(dir, "notes.txt"), "mine");
    expect(pruneBackups(dir, 2).map((f) => path.basename(f))).toEqual(["app-20261120T000000000Z.db", "app-20261121T000000000Z.dump"]);
    expect(fs.readdirSync(dir).sort()).toEqual(["app-20261122T000000000Z.dump", "app-20261123T000000000Z.db", "notes.txt"]);
  });

  it("backupFormat tells a SQLite database, a pg_dump archive and anything else apart by their first bytes", () => {
    const dir = tmp();
    liveDatabase(path.join(dir, "a.db")).close();
    fs.writeFileSync(path.join(dir, "b.dump"), Buffer.concat([Buffer.from("PGDMP"), Buffer.alloc(20)]));
    fs.writeFileSync(path.join(dir, "c.txt"), "hello");
    fs.writeFileSync(path.join(dir, "d"), "");
    expect(["a.db", "b.dump", "c.txt", "d"].map((f) => backupFormat(path.join(dir, f)))).toEqual([
      "sqlite",
      "postgres",
      "unknown",
      "unknown",
    ]);
  });

  it("restoreBackup (SQLite) refuses a pg_dump archive with a message that says so, and changes nothing", () => {
    const dir = tmp();
    const target = path.join(dir, "app.db");
    liveDatabase(target, 2).close();
    const dump = path.join(dir, "app-20261121T000000000Z.dump");
    fs.writeFileSync(dump, Buffer.concat([Buffer.from("PGDMP"), Buffer.alloc(100)]));
    expect(() => restoreBackup(dump, target)).toThrow(/is a PostgreSQL backup \(pg_dump\) and this site runs on SQLite .*Nothing restored/);
    expect(count(target)).toBe(2);
  });
});

/** A fake client tool in a folder of its own (for PG_BIN): prints `version`, logs its arguments and PGPASSWORD, then runs `real` if given. */
function fakeTool(name: string, version: string, real?: string): { dir: string; log: string } {
  const dir = tmp();
  const log = path.join(dir, `${name}.log`);
  const script = [
    "#!/bin/sh",
    `if [ "$1" = "--version" ]; then echo "${name} (PostgreSQL) ${version}"; exit 0; fi`,
    `printf 'ARGS %s\\n' "$*" >> '${log}'`,
    `printf 'PGPASSWORD=%s\\n' "$PGPASSWORD" >> '${log}'`,
    real ? `exec '${real}' "$@"` : "exit 3",
  ].join("\n");
  fs.writeFileSync(path.join(dir, name), script, { mode: 0o755 });
  return { dir, log };
}

async function withPgBin<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const previous = process.env.PG_BIN;
  process.env.PG_BIN = dir;
  try {
    return await work();
  } finally {
    if (previous === undefined) delete process.env.PG_BIN;
    else process.env.PG_BIN = previous;
  }
}

describe("the PostgreSQL client tools", () => {
  it("findPostgresTool: PG_BIN alone when set, its major version, and a clear error when there is none", async () => {
    const fake = fakeTool("pg_dump", "16.4 (Debian 16.4-1)");
    await expect(findPostgresTool("pg_dump", { PG_BIN: fake.dir })).resolves.toEqual({
      path: path.join(fake.dir, "pg_dump"),
      major: 16,
      version: "16.4",
    });
    await expect(findPostgresTool("pg_restore", { PG_BIN: fake.dir })).rejects.toThrow(
      /^pg_restore not found in PG_BIN \(.*\): install the PostgreSQL client tools .*postgresql-client-15/,
    );
    await expect(findPostgresTool("pg_dump", { PG_BIN: tmp(), PATH: process.env.PATH })).rejects.toThrow(/^pg_dump not found in PG_BIN/);
  });

  it("toolConnection: the URL without its password (which goes to PGPASSWORD, decoded), and where for messages", () => {
    expect(toolConnection("postgres://pulse:p%40ss%2Fw0rd@db.example.org:6432/pulse?sslmode=require")).toEqual({
      dbname: "postgres://pulse@db.example.org:6432/pulse?sslmode=require",
      password: "p@ss/w0rd",
      display: "db.example.org:6432/pulse",
    });
    expect(toolConnection("postgresql://pulse@localhost/pulse")).toMatchObject({ password: "", display: "localhost:5432/pulse" });
  });
});

describe.skipIf(!pgAdminUrl)(`backups on PostgreSQL${pgAdminUrl ? "" : ` (skipped: ${NO_POSTGRES})`}`, { timeout: 60_000 }, () => {
  const databases = testDatabases("whitetail_backup_unit");
  async function database(setup?: (c: pg.Client) => Promise<unknown>): Promise<string> {
    const url = await databases.make();
    if (setup) await withPgClient(url, setup);
    return url;
  }
  const migrated = () =>
    database(async (c) => {
      await migratePostgres(c);
      await c.query("INSERT INTO users (username, display_name, email, password_hash) VALUES ('ada', 'Ada', 'ada@example.org', 'h')");
    });
  afterAll(() => databases.dropAll());

  it("gives pg_dump the URL without the password and the password in PGPASSWORD only", async () => {
    const real = await findPostgresTool("pg_dump");
    const realRestore = await findPostgresTool("pg_restore");
    const wrapper = fakeTool("pg_dump", real.version, real.path);
    fs.symlinkSync(realRestore.path, path.join(wrapper.dir, "pg_restore"));
    const url = await migrated();
    const withPassword = new URL(url);
    withPassword.username ||= "postgres";
    withPassword.password = "s3cret pw";
    const dir = path.join(tmp(), "backups");
    const file = await withPgBin(wrapper.dir, () => backupPostgres(withPassword.toString(), dir, new Date(Date.UTC(2026, 10, 27))));
    expect(path.basename(file)).toBe("app-20261127T000000000Z.dump");
    const log = fs.readFileSync(wrapper.log, "utf8");
    expect(log).toMatch(
      /^ARGS --format=custom --no-password --file=\S+\.part --dbname=postgres:\/\/postgres@127\.0\.0\.1:\d+\/whitetail_backup_unit_\S+\n/,
    );
    expect(log).not.toMatch(/ARGS .*s3cret/);
    expect(log).toContain("PGPASSWORD=s3cret pw\n");
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("PGDMP");
  });

  it("refuses a server newer than pg_dump before writing anything", async () => {
    const old = fakeTool("pg_dump", "14.9");
    const url = await migrated();
    const dir = path.join(tmp(), "backups");
    await expect(withPgBin(old.dir, () => backupPostgres(url, dir))).rejects.toThrow(
      /The PostgreSQL server at 127\.0\.0\.1:\d+\/\S+ is version (1[5-9]|[2-9]\d), newer than pg_dump 14\.9 \(.*\), which cannot dump it: install postgresql-client-\d+/,
    );
    expect(fs.existsSync(old.log)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("restorePostgresBackup refuses a missing file, another file, a damaged dump and another database's dump, and writes nothing", async () => {
    const dir = path.join(tmp(), "backups");
    const site = await migrated();
    // Enough rows that most of the dump is table data, after the table of contents.
    await pgQuery(
      site,
      "INSERT INTO posts (author_id, type, title, content) SELECT 1, 'text', 't' || g, md5(g::text) FROM generate_series(1, 3000) g",
    );
    const good = await backupPostgres(site, dir);
    const foreign = await backupPostgres(await database((c) => c.query("CREATE TABLE notes (body text)")), dir);
    const target = await database();
    const other = path.join(tmp(), "notes.txt");
    fs.writeFileSync(other, "hello");
    await expect(restorePostgresBackup(path.join(dir, "missing.dump"), target)).rejects.toThrow(/^No such backup/);
    await expect(restorePostgresBackup(other, target)).rejects.toThrow(/notes\.txt is not a backup of this site .*nothing restored/);
    await expect(restorePostgresBackup(foreign, target)).rejects.toThrow(
      /is not a Whitetail Pulse database \(no migrations table\), nothing restored/,
    );
    // Cut short (a copy that did not finish) at the start or in the table data: refused when read, or by the one transaction.
    const bytes = fs.readFileSync(good);
    for (const share of [0.02, 0.5]) {
      const cut = path.join(tmp(), "cut.dump");
      fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * share)));
      await expect(restorePostgresBackup(cut, target)).rejects.toThrow(
        /(cut\.dump could not be read as a pg_dump archive|failed and was rolled back), nothing restored/,
      );
      expect(await relationCount(target)).toBe(0);
    }
    // Damaged in the table data: the tables are made before pg_restore reaches it, and the one transaction takes them back.
    // Where the 64 bad bytes land decides pg_restore's words, and the dump's bytes differ run to run:
    // inside a compressed block "could not uncompress data"; on a block's length "out of memory" or
    // "could not read from input file: end of file" (both met in clean-clone runs). Any of them is the
    // failure under test; what matters is that it was rolled back and nothing is left.
    const damaged = path.join(tmp(), "damaged.dump");
    const broken = Buffer.from(bytes);
    broken.fill(0xff, Math.floor(broken.length * 0.7), Math.floor(broken.length * 0.7) + 64);
    fs.writeFileSync(damaged, broken);
    await expect(restorePostgresBackup(damaged, target)).rejects.toThrow(
      /The restore into 127\.0\.0\.1:\d+\/\S+ failed and was rolled back, nothing restored: pg_restore exited with 1: \S.*/,
    );
    expect(await relationCount(target)).toBe(0);
    const restored = await restorePostgresBackup(good, target);
    expect(restored.migrations).toBeGreaterThanOrEqual(2);
    expect(restored.tables.find((t) => t.table === "public.users")).toEqual({ table: "public.users", rows: 1 });
    expect(restored.tables.find((t) => t.table === "public.posts")).toEqual({ table: "public.posts", rows: 3000 });
  });

  it("the server's timer backs PostgreSQL up when there is no SQLite handle (DATABASE_URL), keeping BACKUP_KEEP", async () => {
    const url = await migrated();
    const dir = path.join(tmp(), "b");
    const env = parseEnv({ DATABASE_URL: url, BACKUP_DIR: dir, BACKUP_INTERVAL_HOURS: "0.0003", BACKUP_KEEP: "1" }); // 1.08 s
    const taken: string[] = [];
    const stop = scheduleBackups(undefined, env, { done: (r) => taken.push(r.file), failed: (e) => taken.push(String(e)) });
    const deadline = Date.now() + 30_000;
    while (taken.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    stop();
    expect(taken.length).toBeGreaterThanOrEqual(2);
    expect(taken.every((f) => f.endsWith(".dump"))).toBe(true);
    expect(listBackups(dir)).toHaveLength(1);
  });
});

describe("restoreBackup", () => {
  it("refuses while the site has the database open, and restores once it is stopped, keeping the old file", async () => {
    const dir = tmp();
    const target = path.join(dir, "app.db");
    const live = liveDatabase(target, 4);
    const backup = await backupDatabase(live, path.join(dir, "backups"));
    live.prepare("INSERT INTO posts (body) VALUES ('after the backup')").run();
    expect(databaseInUse(target)).toBe(true);
    expect(() => restoreBackup(backup, target)).toThrow(/The site is running on .*stop every server process first.*Nothing restored/);
    expect(count(target)).toBe(5);
    live.close();
    expect(databaseInUse(target)).toBe(false);
    const { previous } = restoreBackup(backup, target);
    expect(count(target)).toBe(4);
    expect(integrityOf(target)).toBe("ok");
    expect(previous).toMatch(/app\.db\.before-restore-\d{8}T\d{9}Z$/);
    expect(count(previous!)).toBe(5);
  });

  it("refuses a damaged file or one that is not this site's database, and changes nothing", async () => {
    const dir = tmp();
    const target = path.join(dir, "app.db");
    liveDatabase(target, 2).close();
    const backup = await backupDatabase(new Database(target), path.join(dir, "backups"));
    const damaged = path.join(dir, "damaged.db");
    const bytes = fs.readFileSync(backup);
    bytes.fill(0xff, 4096, 8192); // the second page: the first table's b-tree
    fs.writeFileSync(damaged, bytes);
    expect(() => restoreBackup(damaged, target)).toThrow(/damaged\.db failed its integrity check, nothing restored/);
    const other = path.join(dir, "other.db");
    new Database(other).exec("CREATE TABLE x (y)");
    expect(() => restoreBackup(other, target)).toThrow(/not a Whitetail Pulse database/);
    expect(() => restoreBackup(path.join(dir, "missing.db"), target)).toThrow(/No such backup/);
    expect(count(target)).toBe(2);
    expect(fs.readdirSync(dir).filter((f) => f.includes("before-restore"))).toEqual([]);
  });
});

describe("scheduleBackups", () => {
  it("takes no backups unless BACKUP_INTERVAL_HOURS is set; then one per interval, keeping BACKUP_KEEP", async () => {
    const dir = tmp();
    const live = liveDatabase(path.join(dir, "app.db"));
    const off = scheduleBackups(live, parseEnv({ BACKUP_DIR: dir }), { done: () => {}, failed: () => {} });
    off();
    const env = parseEnv({ BACKUP_DIR: path.join(dir, "b"), BACKUP_INTERVAL_HOURS: "0.0001", BACKUP_KEEP: "2" }); // 0.36 s
    const taken: string[] = [];
    const stop = scheduleBackups(live, env, { done: (r) => taken.push(r.file), failed: (e) => taken.push(String(e)) });
    await new Promise((r) => setTimeout(r, 1_700));
    stop();
    expect(taken.length).toBeGreaterThanOrEqual(3);
    expect(taken.every((f) => f.endsWith(".db"))).toBe(true);
    expect(listBackups(path.join(dir, "b"))).toHaveLength(2);
    live.close();
  });
});

describe("copyToBucket (a real S3 endpoint)", () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  beforeAll(async () => {
    s3 = await startS3rver("whitetail-backups");
  });
  afterAll(async () => {
    await s3.close();
  });

  it("puts the backup under backups/, the local uploads beside it once, and keeps the newest BACKUP_KEEP", async () => {
    const dir = tmp();
    const uploads = path.join(dir, "uploads");
    fs.mkdirSync(path.join(uploads, "2026/11"), { recursive: true });
    fs.writeFileSync(path.join(uploads, "2026/11/abc123.jpg"), "jpeg bytes");
    fs.writeFileSync(path.join(uploads, "2026/11/.tmp-upload"), "half an upload"); // not a media key
    const env = parseEnv({
      BACKUP_DIR: path.join(dir, "backups"),
      UPLOAD_DIR: uploads,
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    });
    const live = liveDatabase(path.join(dir, "app.db"), 6);
    const results = [];
    for (let i = 0; i < 3; i++) {
      const file = await backupDatabase(live, env.BACKUP_DIR, new Date(Date.UTC(2026, 10, 21 + i)));
      results.push(await copyToBucket(file, env, 2));
    }
    expect(results.map((r) => r.uploads)).toEqual([1, 0, 0]);
    expect(results[2]!.pruned).toEqual([`backups/${backupName(new Date(Date.UTC(2026, 10, 21)))}`]);

    const { client } = createS3Storage({ ...s3.options });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: "backups/" }));
    expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual([
      `backups/${backupName(new Date(Date.UTC(2026, 10, 22)))}`,
      `backups/${backupName(new Date(Date.UTC(2026, 10, 23)))}`,
      "backups/uploads/2026/11/abc123.jpg",
    ]);
    // What is in the bucket restores.
    const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: results[2]!.database }));
    const fetched = path.join(dir, "fetched.db");
    fs.writeFileSync(fetched, Buffer.from(await object.Body!.transformToByteArray()));
    expect(integrityOf(fetched)).toBe("ok");
    expect(count(fetched)).toBe(6);
    live.close();
  });

  it("a PostgreSQL dump goes to the same place under the same keep-N rule, which counts both engines' backups", async () => {
    const dir = tmp();
    const env = parseEnv({
      BACKUP_DIR: path.join(dir, "backups"),
      UPLOAD_DIR: path.join(dir, "uploads"),
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    });
    fs.mkdirSync(env.BACKUP_DIR);
    const { client } = createS3Storage({ ...s3.options });
    const keys = async () =>
      ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: "backups/app-" }))).Contents ?? [])
        .map((o) => o.Key)
        .sort();
    // What the bucket has from the test above: the SQLite backups of 22 and 23 November.
    expect(await keys()).toEqual([
      `backups/${backupName(new Date(Date.UTC(2026, 10, 22)))}`,
      `backups/${backupName(new Date(Date.UTC(2026, 10, 23)))}`,
    ]);
    const dump = path.join(env.BACKUP_DIR, backupName(new Date(Date.UTC(2026, 10, 24)), "dump"));
    fs.writeFileSync(dump, Buffer.concat([Buffer.from("PGDMP"), Buffer.alloc(64)]));
    const result = await copyToBucket(dump, env, 2);
    expect(result.database).toBe("backups/app-20261124T000000000Z.dump");
    expect(result.pruned).toEqual([`backups/${backupName(new Date(Date.UTC(2026, 10, 22)))}`]);
    expect(await keys()).toEqual([`backups/${backupName(new Date(Date.UTC(2026, 10, 23)))}`, "backups/app-20261124T000000000Z.dump"]);
    const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: result.database }));
    expect(object.ContentType).toBe("application/octet-stream");
    expect(
      Buffer.from(await object.Body!.transformToByteArray())
        .subarray(0, 5)
        .toString(),
    ).toBe("PGDMP");
  });
});
