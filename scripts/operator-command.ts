import { closeDatabase } from "../app/utils/db.server";
import { isAppError } from "../app/utils/errors";

/**
 * Runs an operator command (npm run role, npm run reset-password) and sets its exit code: `main`
 * answers 0 or a usage code; a domain refusal (no such member, a bad role) is its one-line message
 * and exit code 1. The database is closed either way: PostgreSQL's pool would keep the process alive.
 */
export async function runOperatorCommand(main: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await main();
  } catch (error) {
    if (!isAppError(error)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    await closeDatabase();
  }
}
