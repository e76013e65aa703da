import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3rver } from "#tests/fixtures/media";
import {
  backupDatabase,
  backupName,
  copyToBucket,
  databaseInUse,
  integrityOf,
  listBackups,
  pruneBackups,
  restoreBackup,
  scheduleBackups,
} from "./backup.server";
import { parseEnv } from "./env.server";
import { createS3Storage } from "./storage.server";

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
});
