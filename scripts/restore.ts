/**
 * `npm run restore -- FILE` (CONTRACT.md §6, docs/deploy/backups.md): put a backup in place of
 * DATABASE_PATH. Refuses while any server has the database open, and when the file fails SQLite's
 * integrity check; the current database is kept beside it as `<DATABASE_PATH>.before-restore-<stamp>`.
 * Start the site afterwards: migrations bring an older backup up to date.
 */
import { restoreBackup } from "../app/utils/backup.server";
import { env } from "../app/utils/env.server";

const USAGE = "Usage: npm run restore -- <backup file>   (stop the site first)";

function main(): number {
  const [file, ...extra] = process.argv.slice(2);
  if (!file || extra.length) {
    console.error(USAGE);
    return 2;
  }
  try {
    const { restored, previous } = restoreBackup(file, env.DATABASE_PATH);
    console.log(`Restored ${file} into ${restored}.` + (previous ? ` The database it replaced is kept as ${previous}.` : ""));
    return 0;
  } catch (error) {
    console.error(`Restore refused: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = main();
