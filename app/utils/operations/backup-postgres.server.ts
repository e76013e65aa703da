import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";

/**
 * Backups on PostgreSQL (CONTRACT.md §6 and §9, issue 25): `pg_dump --format=custom` of the site's
 * database, restored with `pg_restore` into an empty database only. backup.server.ts names the files,
 * applies the keep-N rule and copies them to the bucket for both engines; this file runs the
 * PostgreSQL client tools.
 *
 * - The tools are Debian's postgresql-client (`/usr/lib/postgresql/<major>/bin`), or whatever PATH
 *   or `PG_BIN` offers; the newest found is used, and a server newer than it is refused up front
 *   (pg_dump cannot dump a newer server).
 * - The password never goes on a command line (which `ps` and logs show): the tools get the URL
 *   without it, and the password in `PGPASSWORD`.
 * - A restore runs in one transaction (`--single-transaction --exit-on-error`): when it fails,
 *   nothing was written. `--no-owner --no-privileges`: the restored objects belong to the user of
 *   DATABASE_URL, whatever the roles of the server the dump came from.
 */

const run = promisify(execFile);

/** The first bytes of a `pg_dump --format=custom` file. */
export const PG_DUMP_MAGIC = "PGDMP";
/** drizzle's migrations table on PostgreSQL (schema `drizzle`): what makes a dump this site's. */
const MIGRATIONS = "drizzle.__drizzle_migrations";

export type PostgresTool = { path: string; major: number; version: string };
type ToolName = "pg_dump" | "pg_restore";
type Environment = Record<string, string | undefined>;

/** Where to look for a client tool: PG_BIN alone when set; else Debian's versioned folders, newest first, then PATH. */
function candidates(name: ToolName, environment: Environment): string[] {
  if (environment.PG_BIN) return [path.join(environment.PG_BIN, name)];
  const debian = "/usr/lib/postgresql";
  const versions = fs.existsSync(debian)
    ? fs
        .readdirSync(debian)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const onPath = (environment.PATH ?? "").split(path.delimiter).filter(Boolean);
  return [...versions.map((v) => path.join(debian, v, "bin", name)), ...onPath.map((dir) => path.join(dir, name))];
}

/**
 * The newest `pg_dump` / `pg_restore` on this machine, with its major version; a clear error when
 * there is none.
 */
export async function findPostgresTool(name: ToolName, environment: Environment = process.env): Promise<PostgresTool> {
  let best: PostgresTool | undefined;
  const seen = new Set<string>();
  for (const file of candidates(name, environment)) {
    if (seen.has(file)) continue;
    seen.add(file);
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      continue;
    }
    try {
      const { stdout } = await run(file, ["--version"], { timeout: 10_000 });
      const match = /\(PostgreSQL\)\s+(\d+)(?:\.\d+)*/.exec(stdout);
      if (!match) continue;
      const tool = { path: file, major: Number(match[1]), version: match[0].replace(/^\(PostgreSQL\)\s+/, "") };
      if (!best || tool.major > best.major) best = tool;
    } catch {
      // Not a working binary (a wrapper with no cluster behind it, a broken install): look further.
    }
  }
  if (!best) {
    const where = environment.PG_BIN ? `PG_BIN (${environment.PG_BIN})` : "/usr/lib/postgresql/*/bin or PATH";
    throw new Error(
      `${name} not found in ${where}: install the PostgreSQL client tools of your server's version (apt-get install postgresql-client-15, or the server's major) or set PG_BIN to their folder`,
    );
  }
  return best;
}

/** What the client tools are given: the URL without its password (for `--dbname`), and the password for PGPASSWORD. */
export function toolConnection(url: string): { dbname: string; password: string; display: string } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  const display = `${parsed.hostname || "localhost"}:${parsed.port || 5432}${parsed.pathname}`;
  return { dbname: parsed.toString(), password, display };
}

function toolEnvironment(password: string): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env, PGCONNECT_TIMEOUT: process.env.PGCONNECT_TIMEOUT ?? "10" };
  if (password) environment.PGPASSWORD = password;
  return environment;
}

/** Run a client tool; resolves with its stdout, rejects with its stderr (never its arguments). */
function runTool(tool: PostgresTool, args: string[], password: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.path, args, { env: toolEnvironment(password), stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.once("error", reject);
    child.once("close", (code, signal) => {
      if (code === 0) return resolve(Buffer.concat(out).toString("utf8"));
      const said = Buffer.concat(err).toString("utf8").trim().split("\n").slice(0, 5).join(" / ");
      reject(new Error(`${path.basename(tool.path)} exited with ${code ?? signal}${said ? `: ${said}` : ""}`));
    });
  });
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function serverMajor(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ server_version_num: string }>("SHOW server_version_num");
  return Math.floor(Number(rows[0]!.server_version_num) / 10_000);
}

/** Does the file start as a `pg_dump --format=custom` archive does? */
export function isPostgresDump(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(PG_DUMP_MAGIC.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return read === head.length && head.toString("latin1") === PG_DUMP_MAGIC;
  } finally {
    fs.closeSync(fd);
  }
}

/** The tables a dump holds (`schema.name`), from its table of contents (`pg_restore --list`). */
function tablesIn(list: string): string[] {
  const tables: string[] = [];
  for (const line of list.split("\n")) {
    const match = /^\d+; \d+ \d+ TABLE (?!DATA )(\S+) (\S+) /.exec(line);
    if (match) tables.push(`${match[1]}.${match[2]}`);
  }
  return tables.sort();
}

/**
 * `pg_dump --format=custom` of the database at `url` into `target` (mode 0600): one consistent
 * snapshot while the site goes on writing. Written as `<target>.part`, read back with
 * `pg_restore --list` (the archive is whole), then renamed.
 */
export async function dumpPostgres(url: string, target: string, fileMode: number): Promise<string> {
  const { dbname, password, display } = toolConnection(url);
  const tool = await findPostgresTool("pg_dump");
  const major = await withClient(url, serverMajor);
  if (major > tool.major) {
    throw new Error(
      `The PostgreSQL server at ${display} is version ${major}, newer than pg_dump ${tool.version} (${tool.path}), which cannot dump it: install postgresql-client-${major} (or set PG_BIN to its folder)`,
    );
  }
  const partial = `${target}.part`;
  try {
    // Made private before pg_dump writes a byte into it (pg_dump keeps an existing file's mode).
    fs.writeFileSync(partial, "", { mode: fileMode });
    fs.chmodSync(partial, fileMode);
    await runTool(tool, ["--format=custom", "--no-password", `--file=${partial}`, `--dbname=${dbname}`], password);
    if (!isPostgresDump(partial)) throw new Error("pg_dump wrote something that is not a custom-format archive");
    const restoreTool = await findPostgresTool("pg_restore");
    await runTool(restoreTool, ["--list", partial], "");
    fs.renameSync(partial, target);
    return target;
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/** Tables, sequences, views, schemas and functions the database already has (an extension's own do not count). */
async function contentsOf(client: pg.Client): Promise<{ relations: number; schemas: number; functions: number }> {
  const user = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`;
  const notExtension = (oid: string) => `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = ${oid} AND d.deptype = 'e')`;
  const { rows } = await client.query<{ relations: number; schemas: number; functions: number }>(`
    SELECT
      (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND ${user} AND ${notExtension("c.oid")}) AS relations,
      (SELECT count(*)::int FROM pg_namespace n WHERE n.nspname <> 'public' AND ${user} AND ${notExtension("n.oid")}) AS schemas,
      (SELECT count(*)::int FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE ${user} AND ${notExtension("p.oid")}) AS functions`);
  return rows[0]!;
}

export type TableRows = { table: string; rows: number };
export type PostgresRestore = { database: string; tables: TableRows[]; migrations: number };

/**
 * `npm run restore -- FILE` on PostgreSQL: the dump goes into the database at `url`, which must be
 * empty (a database that holds anything is refused, and nothing is changed). The restore is one
 * transaction; afterwards every table of the dump must be there and the migrations table filled,
 * and the planner's statistics are gathered (ANALYZE). Returns the rows per table.
 */
export async function restorePostgres(file: string, url: string): Promise<PostgresRestore> {
  const { dbname, password, display } = toolConnection(url);
  const tool = await findPostgresTool("pg_restore");
  let list: string;
  try {
    list = await runTool(tool, ["--list", file], "");
  } catch (error) {
    throw new Error(`${file} could not be read as a pg_dump archive, nothing restored: ${(error as Error).message}`);
  }
  const expected = tablesIn(list);
  if (!expected.includes(MIGRATIONS)) {
    throw new Error(`${file} is not a Whitetail Pulse database (no migrations table), nothing restored`);
  }
  return withClient(url, async (client) => {
    const found = await contentsOf(client);
    if (found.relations || found.schemas || found.functions) {
      throw new Error(
        `The database ${display} is not empty (${found.relations} tables, sequences or views, ${found.schemas} schemas, ${found.functions} functions): restore into a new, empty database (createdb, then point DATABASE_URL at it). Nothing restored.`,
      );
    }
    try {
      await runTool(
        tool,
        ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", "--no-password", `--dbname=${dbname}`, file],
        password,
      );
    } catch (error) {
      throw new Error(`The restore into ${display} failed and was rolled back, nothing restored: ${(error as Error).message}`);
    }
    const { rows: present } = await client.query<{ name: string }>(
      `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`,
    );
    const have = new Set(present.map((r) => r.name));
    const missing = expected.filter((t) => !have.has(t));
    if (missing.length) throw new Error(`The restore into ${display} is missing tables of the backup: ${missing.join(", ")}`);
    const tables: TableRows[] = [];
    for (const table of expected) {
      const [schema, name] = table.split(".");
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}"."${name}"`);
      tables.push({ table, rows: rows[0]!.n });
    }
    const migrations = tables.find((t) => t.table === MIGRATIONS)!.rows;
    if (!migrations) throw new Error(`The restore into ${display} has an empty migrations table: the backup is not a migrated site`);
    await client.query("ANALYZE");
    return { database: display, tables, migrations };
  });
}
