/**
 * `npm run backup` (CONTRACT.md §6, docs/deploy/backups.md): a consistent copy of DATABASE_PATH,
 * taken while the site serves writes, to BACKUP_DIR (a timestamped `.db`), keeping the newest
 * BACKUP_KEEP; with S3_BUCKET set, also to `backups/` in the bucket with the local uploads beside it.
 * The database is opened as it is (no migrations run), so a backup before an upgrade is the old schema.
 */
import fs from "node:fs";
import Database from "better-sqlite3";
import { takeBackup } from "../app/utils/backup.server";
import { env } from "../app/utils/env.server";

async function main(): Promise<number> {
  // Whatever the shell's umask, nothing this writes is readable by other users (security-2 N13);
  // backupDatabase sets 0600/0700 itself as well.
  process.umask(0o077);
  if (!fs.existsSync(env.DATABASE_PATH)) {
    console.error(`No database at ${env.DATABASE_PATH} (DATABASE_PATH): nothing to back up.`);
    return 1;
  }
  const source = new Database(env.DATABASE_PATH, { fileMustExist: true, timeout: 5_000 });
  try {
    const { file, pruned, bucket } = await takeBackup(source, env);
    console.log(`Backed up ${env.DATABASE_PATH} to ${file}` + (pruned.length ? ` (removed ${pruned.length} older)` : ""));
    if (bucket)
      console.log(`Copied to s3://${env.S3_BUCKET}/${bucket.database}, with ${bucket.uploads} new upload(s) under backups/uploads/`);
    return 0;
  } catch (error) {
    console.error(`Backup failed: ${(error as Error).message}`);
    return 1;
  } finally {
    source.close();
  }
}

process.exitCode = await main();
