/**
 * `npm run backup` (CONTRACT.md §6 and §9, docs/deploy/backups.md): a consistent copy of the site's
 * database, taken while the site serves writes, to BACKUP_DIR, keeping the newest BACKUP_KEEP; with
 * S3_BUCKET set, also to `backups/` in the bucket with the local uploads beside it.
 * - SQLite (DATABASE_PATH): SQLite's online backup, a timestamped `.db`.
 * - PostgreSQL (DATABASE_URL): `pg_dump --format=custom`, a timestamped `.dump` (the client tools
 *   of the server's major version must be installed: postgresql-client-15 or newer).
 * The database is opened as it is (no migrations run), so a backup before an upgrade is the old schema.
 */
import fs from "node:fs";
import Database from "better-sqlite3";
import { toolConnection } from "../app/utils/operations/backup-postgres.server";
import { takeBackup, type BackupResult } from "../app/utils/operations/backup.server";
import { env } from "../app/utils/env.server";

function report(from: string, { file, pruned, bucket }: BackupResult) {
  console.log(`Backed up ${from} to ${file}` + (pruned.length ? ` (removed ${pruned.length} older)` : ""));
  if (bucket)
    console.log(`Copied to s3://${env.S3_BUCKET}/${bucket.database}, with ${bucket.uploads} new upload(s) under backups/uploads/`);
}

async function main(): Promise<number> {
  // Whatever the shell's umask, nothing this writes is readable by other users (security-2 N13);
  // backupDatabase sets 0600/0700 itself as well.
  process.umask(0o077);
  if (env.DATABASE_URL) {
    try {
      report(`PostgreSQL ${toolConnection(env.DATABASE_URL).display}`, await takeBackup({ postgres: env.DATABASE_URL }, env));
      return 0;
    } catch (error) {
      console.error(`Backup failed: ${(error as Error).message}`);
      return 1;
    }
  }
  if (!fs.existsSync(env.DATABASE_PATH)) {
    console.error(`No database at ${env.DATABASE_PATH} (DATABASE_PATH): nothing to back up.`);
    return 1;
  }
  const source = new Database(env.DATABASE_PATH, { fileMustExist: true, timeout: 5_000 });
  try {
    report(env.DATABASE_PATH, await takeBackup(source, env));
    return 0;
  } catch (error) {
    console.error(`Backup failed: ${(error as Error).message}`);
    return 1;
  } finally {
    source.close();
  }
}

process.exitCode = await main();
