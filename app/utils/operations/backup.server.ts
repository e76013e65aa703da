import fs from "node:fs";
import path from "node:path";
import { DeleteObjectsCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import { dumpPostgres, isPostgresDump, restorePostgres, type PostgresRestore } from "./backup-postgres.server";
import type { Env } from "../env.server";
import { contentTypeForKey, createS3Storage, isValidKey } from "../media/storage.server";
import { runEvery } from "../jobs.server";

/**
 * Backups that restore (CONTRACT.md §6, docs/decisions/0040-health-logs-backups-shutdown.md).
 *
 * A backup is SQLite's online backup of the live database (better-sqlite3 `db.backup()`): always a
 * consistent snapshot while writers go on (WAL). After the first 100 pages the rest is copied in one
 * step, so a commit by another process cannot keep restarting it on a busy site. The copy is then
 * turned into a single self-contained file (rollback journal, no `-wal` beside it) and checked with
 * `PRAGMA integrity_check` before it takes its final name, `app-<UTC stamp>.db`.
 *
 * On PostgreSQL (DATABASE_URL) a backup is `pg_dump --format=custom`, `app-<UTC stamp>.dump`
 * (backup-postgres.server.ts). Both kinds go to the same BACKUP_DIR and bucket and fall under the
 * same keep-N rule (`beyondNewest`).
 */

const NAME = /^app-\d{8}T\d{9}Z\.(?:db|dump)$/;
export const BUCKET_PREFIX = "backups/";

/** The file name's ending: a SQLite database, or a PostgreSQL custom-format dump. */
export type BackupKind = "db" | "dump";

/** `app-20261123T070102123Z.db` (or `.dump`): sorts by time, and is a valid storage key. */
export function backupName(now: Date = new Date(), kind: BackupKind = "db"): string {
  return `app-${now.toISOString().replace(/[-:.]/g, "")}.${kind}`;
}

/**
 * The keep-N rule, one for BACKUP_DIR and the bucket and for both engines' files: of `names` (paths
 * or keys), the backups older than the newest `keep`, oldest first. Anything not named like a
 * backup is not counted and never returned.
 */
export function beyondNewest(names: string[], keep: number): string[] {
  const stamp = (name: string) => path.posix.basename(name.split(path.sep).join("/"));
  return names
    .filter((name) => NAME.test(stamp(name)))
    .sort((a, b) => (stamp(a) < stamp(b) ? -1 : stamp(a) > stamp(b) ? 1 : 0))
    .slice(0, -keep);
}

const SQLITE_MAGIC = "SQLite format 3\0";

/** What a file holds, by its first bytes: a SQLite database, a pg_dump custom-format archive, or neither. */
export function backupFormat(file: string): "sqlite" | "postgres" | "unknown" {
  if (isPostgresDump(file)) return "postgres";
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return read === head.length && head.toString("latin1") === SQLITE_MAGIC ? "sqlite" : "unknown";
  } finally {
    fs.closeSync(fd);
  }
}

/** "ok", or what SQLite found wrong (the file is opened read-only). */
export function integrityOf(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma("integrity_check") as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join("; ");
  } finally {
    db.close();
  }
}

/**
 * A backup holds every e-mail address and password hash: the directory is the site user's alone
 * (0700, tightened if it was open wider) and so is each file (0600), whatever the umask
 * (security-2 N13).
 */
export const BACKUP_DIR_MODE = 0o700;
export const BACKUP_FILE_MODE = 0o600;

/** BACKUP_DIR, made (or tightened) to the site user's alone. */
function privateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: BACKUP_DIR_MODE });
  try {
    if ((fs.statSync(dir).mode & 0o777) !== BACKUP_DIR_MODE) fs.chmodSync(dir, BACKUP_DIR_MODE);
  } catch {
    // Not ours to change (a mount point, another owner): the files themselves are still 0600.
  }
}

/** A consistent copy of `source` in `dir`; returns its path. */
export async function backupDatabase(source: Database.Database, dir: string, now: Date = new Date()): Promise<string> {
  privateDir(dir);
  const target = path.join(dir, backupName(now));
  const partial = `${target}.part`;
  try {
    // The first step copies 100 pages; this makes the next one copy the rest.
    await source.backup(partial, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
    fs.chmodSync(partial, BACKUP_FILE_MODE);
    const copy = new Database(partial);
    copy.pragma("journal_mode = DELETE");
    copy.close();
    const integrity = integrityOf(partial);
    if (integrity !== "ok") throw new Error(`The backup failed its integrity check: ${integrity}`);
    fs.renameSync(partial, target);
    return target;
  } finally {
    for (const leftover of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`]) fs.rmSync(leftover, { force: true });
  }
}

/** A `pg_dump --format=custom` of the PostgreSQL database at `url` in `dir` (`app-<stamp>.dump`, 0600); returns its path. */
export async function backupPostgres(url: string, dir: string, now: Date = new Date()): Promise<string> {
  privateDir(dir);
  return dumpPostgres(url, path.join(dir, backupName(now, "dump")), BACKUP_FILE_MODE);
}

/** Backups in `dir` (of either engine), oldest first. */
export function listBackups(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => NAME.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Delete all but the newest `keep` backups in `dir`; returns what was deleted. */
export function pruneBackups(dir: string, keep: number): string[] {
  const old = beyondNewest(listBackups(dir), keep);
  for (const file of old) fs.rmSync(file, { force: true });
  return old;
}

/** Every file under the local upload directory that is a media key (temporary files are not). */
function uploadKeys(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join("/"))
    .filter((key) => isValidKey(key) && fs.statSync(path.join(root, key)).isFile());
}

export type BucketCopy = { database: string; uploads: number; pruned: string[] };

/**
 * With `S3_BUCKET` set: the backup goes to `backups/` in the bucket, the local uploads (UPLOAD_DIR)
 * to `backups/uploads/` (only those not there yet: media keys are never reused), and the bucket
 * keeps the newest `keep` database backups too.
 */
export async function copyToBucket(file: string, e: Env, keep: number): Promise<BucketCopy> {
  if (!e.S3_BUCKET) throw new Error("S3_BUCKET is not set");
  const storage = createS3Storage({
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
  });
  const database = `${BUCKET_PREFIX}${path.basename(file)}`;
  const contentType = file.endsWith(".dump") ? "application/octet-stream" : "application/vnd.sqlite3";
  await storage.put(database, fs.createReadStream(file), { contentType });
  let uploads = 0;
  for (const key of uploadKeys(e.UPLOAD_DIR)) {
    const copy = `${BUCKET_PREFIX}uploads/${key}`;
    if (!isValidKey(copy) || (await storage.stat(copy))) continue;
    await storage.put(copy, fs.createReadStream(path.join(e.UPLOAD_DIR, key)), { contentType: contentTypeForKey(key) });
    uploads += 1;
  }
  const listed = await storage.client.send(new ListObjectsV2Command({ Bucket: e.S3_BUCKET, Prefix: `${BUCKET_PREFIX}app-` }));
  const pruned = beyondNewest(
    (listed.Contents ?? []).map((o) => o.Key ?? ""),
    keep,
  );
  if (pruned.length) {
    await storage.client.send(new DeleteObjectsCommand({ Bucket: e.S3_BUCKET, Delete: { Objects: pruned.map((Key) => ({ Key })) } }));
  }
  return { database, uploads, pruned };
}

export type BackupResult = { file: string; pruned: string[]; bucket?: BucketCopy };

/** What is backed up: the open SQLite database, or the PostgreSQL database at a URL. */
export type BackupSource = Database.Database | { postgres: string };

/**
 * What `npm run backup` and the server's timer do, on either engine: back up, keep the newest
 * BACKUP_KEEP, copy to the bucket.
 */
export async function takeBackup(source: BackupSource, e: Env, now: Date = new Date()): Promise<BackupResult> {
  const file =
    "postgres" in source ? await backupPostgres(source.postgres, e.BACKUP_DIR, now) : await backupDatabase(source, e.BACKUP_DIR, now);
  const pruned = pruneBackups(e.BACKUP_DIR, e.BACKUP_KEEP);
  const bucket = e.S3_BUCKET ? await copyToBucket(file, e, e.BACKUP_KEEP) : undefined;
  return { file, pruned, bucket };
}

/**
 * Is a process using this database file? A connection in WAL mode holds a shared lock for as long
 * as it is open, so an exclusive lock is refused while any server (or other client) has it open.
 */
export function databaseInUse(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const db = new Database(file, { fileMustExist: true, timeout: 200 });
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE; COMMIT;");
    return false;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY")) return true;
    throw error;
  } finally {
    db.close();
  }
}

export type RestoreResult = { restored: string; previous: string | null };

/**
 * `npm run restore -- FILE`: put a backup in place of `target` (DATABASE_PATH) with the site
 * stopped. The backup must pass its integrity check and be this site's database; the current file
 * (and a `-wal` beside it) is kept as `<target>.before-restore-<stamp>`, never deleted.
 */
export function restoreBackup(file: string, target: string, now: Date = new Date()): RestoreResult {
  if (!fs.existsSync(file)) throw new Error(`No such backup: ${file}`);
  if (backupFormat(file) === "postgres") {
    throw new Error(
      `${file} is a PostgreSQL backup (pg_dump) and this site runs on SQLite (DATABASE_PATH): set DATABASE_URL to an empty PostgreSQL database to restore it there. Nothing restored.`,
    );
  }
  let integrity: string;
  try {
    integrity = integrityOf(file);
  } catch (error) {
    integrity = (error as Error).message;
  }
  if (integrity !== "ok") throw new Error(`${file} failed its integrity check, nothing restored: ${integrity}`);
  const probe = new Database(file, { readonly: true });
  const isOurs = probe.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  probe.close();
  if (!isOurs) throw new Error(`${file} is not a Whitetail Pulse database (no migrations table), nothing restored`);
  if (databaseInUse(target)) {
    throw new Error(`The site is running on ${target}: stop every server process first, then restore again. Nothing restored.`);
  }
  fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  const incoming = `${target}.restoring`;
  fs.copyFileSync(file, incoming);
  let previous: string | null = null;
  if (fs.existsSync(target)) {
    previous = `${target}.before-restore-${backupName(now).slice(4, -3)}`;
    fs.renameSync(target, previous);
    for (const side of ["-wal", "-shm"]) if (fs.existsSync(target + side)) fs.renameSync(target + side, previous + side);
  }
  fs.renameSync(incoming, target);
  return { restored: target, previous };
}

/**
 * `npm run restore -- FILE` on PostgreSQL (DATABASE_URL): a `.dump` into the database at `url`,
 * which must be empty. A SQLite backup, or any other file, is refused with nothing changed.
 */
export async function restorePostgresBackup(file: string, url: string): Promise<PostgresRestore> {
  if (!fs.existsSync(file)) throw new Error(`No such backup: ${file}`);
  const format = backupFormat(file);
  if (format === "sqlite") {
    throw new Error(
      `${file} is a SQLite backup and this site runs on PostgreSQL (DATABASE_URL): restore it on a SQLite site (DATABASE_URL unset), then copy it over with npm run db:move. Nothing restored.`,
    );
  }
  if (format !== "postgres") {
    throw new Error(`${file} is not a backup of this site (neither a pg_dump custom-format file nor a SQLite database), nothing restored`);
  }
  return restorePostgres(file, url);
}

/**
 * `BACKUP_INTERVAL_HOURS`: the running server backs itself up; returns the function that stops it.
 * `source` is the SQLite handle, or undefined on PostgreSQL (then the database at DATABASE_URL).
 */
export function scheduleBackups(
  source: Database.Database | undefined,
  e: Env,
  report: { done: (r: BackupResult) => void; failed: (error: unknown) => void },
): () => void {
  const from: BackupSource | undefined = source ?? (e.DATABASE_URL ? { postgres: e.DATABASE_URL } : undefined);
  if (!e.BACKUP_INTERVAL_HOURS || !from) return () => {};
  return runEvery(
    "backup",
    e.BACKUP_INTERVAL_HOURS * 3_600_000,
    async () => {
      if (!("postgres" in from) && !from.open) return;
      report.done(await takeBackup(from, e));
    },
    { startNow: false, onError: report.failed },
  );
}
