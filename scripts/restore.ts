/**
 * `npm run restore -- FILE` (CONTRACT.md §6 and §9, docs/deploy/backups.md).
 * - SQLite (DATABASE_PATH): puts a `.db` backup in place of DATABASE_PATH. Refuses while any server
 *   has the database open, and when the file fails SQLite's integrity check; the current database
 *   is kept beside it as `<DATABASE_PATH>.before-restore-<stamp>`.
 * - PostgreSQL (DATABASE_URL): restores a `.dump` into that database, which must be empty (create
 *   a new one); one transaction, so a failure leaves nothing behind. Prints the rows per table.
 * Either refuses the other engine's backup. Start the site afterwards: migrations bring an older
 * backup up to date.
 */
import { restoreBackup, restorePostgresBackup } from "../app/utils/operations/backup.server";
import { env } from "../app/utils/env.server";

const USAGE = "Usage: npm run restore -- <backup file>   (stop the site first)";

async function main(): Promise<number> {
  const [file, ...extra] = process.argv.slice(2);
  if (!file || extra.length) {
    console.error(USAGE);
    return 2;
  }
  try {
    if (env.DATABASE_URL) {
      const { database, tables, migrations } = await restorePostgresBackup(file, env.DATABASE_URL);
      const rows = tables.reduce((sum, t) => sum + t.rows, 0);
      console.log(`Restored ${file} into PostgreSQL ${database}: ${tables.length} tables, ${rows} rows, ${migrations} migrations applied.`);
      for (const { table, rows } of tables) console.log(`  ${table.padEnd(36)} ${rows}`);
      return 0;
    }
    const { restored, previous } = restoreBackup(file, env.DATABASE_PATH);
    console.log(`Restored ${file} into ${restored}.` + (previous ? ` The database it replaced is kept as ${previous}.` : ""));
    return 0;
  } catch (error) {
    console.error(`Restore refused: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main();
