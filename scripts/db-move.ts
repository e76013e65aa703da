/**
 * `npm run db:move -- --to postgres://user:password@host:port/database [--from FILE]`
 * (CONTRACT.md §9, docs/deploy/postgres-move.md): copies the stopped SQLite site at DATABASE_PATH (or
 * --from) into an empty PostgreSQL database, with the same ids, sequences past them, sessions,
 * counters and the search index, in one transaction. Prints the rows per table on both sides and the
 * time taken. Exit 0 when every count agrees; 1 when it refuses (a target that is not empty, a
 * missing file, a site still running), fails, or a count differs (then nothing is committed).
 * The work is in app/utils/operations/db-move.server.ts.
 */
import { formatMoveReport, describeTarget, moveSqliteToPostgres, MoveRefused } from "../app/utils/operations/db-move.server";
import { env } from "../app/utils/env.server";

const USAGE = "Usage: npm run db:move -- --to postgres://user:password@host:port/database [--from path/to/app.db]";

function parseArgs(argv: string[]): { to: string; from: string } | string {
  let to: string | undefined;
  let from = env.DATABASE_PATH;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (name === "--") continue;
    if (name !== "--to" && name !== "--from") return `Unknown argument "${arg}". ${USAGE}`;
    const value = inline ?? argv[++i];
    if (!value) return `${name} needs a value. ${USAGE}`;
    if (name === "--to") to = value;
    else from = value;
  }
  if (!to) return `--to is required. ${USAGE}`;
  return { to, from };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === "string") {
    console.error(args);
    return 1;
  }
  console.log(`Moving ${args.from} into PostgreSQL ${describeTarget(args.to)} …`);
  try {
    const result = await moveSqliteToPostgres({ from: args.from, to: args.to, progress: (line) => console.log(`  ${line}`) });
    console.log(formatMoveReport(result));
    if (result.ok) console.log(`Identities moved past their largest ids: ${result.sequences.join(", ")}.`);
    return result.ok ? 0 : 1;
  } catch (error) {
    if (error instanceof MoveRefused) console.error(`Refused: ${error.message}`);
    else console.error(`The move failed and was rolled back: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main();
