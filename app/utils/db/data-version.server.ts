import type Database from "better-sqlite3";

/**
 * The data version (docs/decisions/0032-validators-and-shared-caching.md): one counter in the
 * database that every committed write moves on, so a page's validator can be computed without
 * rendering it. Triggers do the counting, inside the writing transaction, so a write from any
 * process on the same file (a second server, a script, the seed) moves it too, and it survives
 * restarts.
 *
 * The triggers are (re)installed each time a connection opens, for every table there is then: a
 * table a later migration adds is counted without anyone remembering to. Left out:
 * - bookkeeping no page shows: rate-limit counters, drizzle's migration log, the counter itself, and
 *   the per-URL cache of other sites' link previews (a page draws a post's preview from it when the
 *   post has none of its own, but a preview's arrival is also copied into the posts lacking it, a
 *   counted write: link-metadata.server.ts; failures stored there change no page), and
 *   the leases of resumable uploads being written (upload_locks, renewed every few seconds of a PATCH),
 *   work off the request (notification_fanouts: a club post's fan-out and its cursor; the
 *   notifications it writes count), who was told of which act (notification_acts, the 24-hour memory
 *   that keeps toggles from flooding), the jobs' run counts (job_runs) and the site's own keys
 *   (site_keys);
 * - full-text index tables (virtual tables and their shadows change with the rows they index);
 * - in `sessions`, the sliding last-seen/expiry columns (a member reading pages writes them every few
 *   minutes; a sign-in, a sign-out or a session ended elsewhere still counts);
 * - in `notifications`, `sent_at` and the rest of the delivery's bookkeeping (`pushed_at`, `mailed_at`,
 *   the lease `claimed_until`, `attempts`, `next_attempt_at`, `failed_at`): the marks that a row was mailed or pushed (before, every
 *   delivery emptied every visitor page and ETag; CONTRACT.md §11). A new, read or removed
 *   notification still counts: a member's bell shows it.
 *
 * A trigger whose definition changed (a column left out since) is made again at the next start.
 */

/**
 * The tables no page's cache depends on: bookkeeping, work off the request, the site's own keys, and
 * the engine's own tables. The one list: SQLite's triggers are made from it here at each start,
 * PostgreSQL's are written from it into a migration by `npm run db:generate` (pgTriggerStatements
 * below), and `npm run db:check` and the tests (schema-parity, validators) hold both to it.
 */
export const UNCOUNTED_TABLES: readonly string[] = [
  "rate_limits",
  "__drizzle_migrations",
  "data_version",
  "link_previews",
  "upload_locks",
  "notification_fanouts",
  "notification_acts",
  "notification_digests",
  "club_event_jobs",
  "job_runs",
  "site_keys",
  // Why a session ended (ux-3 U7): read only by a request whose answer drops its cookie.
  "ended_sessions",
  // What a phone's share sheet sent, until the create page takes it (ADR 0092).
  "incoming_shares",
];
const uncountedTables = new Set(UNCOUNTED_TABLES);
/** The delivery's marks, lease and attempts on a notification (ADR 0069): no page shows them. */
const DELIVERY_COLUMNS = ["sent_at", "pushed_at", "mailed_at", "claimed_until", "attempts", "next_attempt_at", "failed_at"];
/** Columns whose change alone is not a change any page shows (the one list, as UNCOUNTED_TABLES). */
export const UNCOUNTED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  sessions: ["last_seen_at", "expires_at"],
  notifications: DELIVERY_COLUMNS,
  // When the member's last digest was queued (the digest job's cursor, ADR 0072).
  notification_settings: ["digest_at"],
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function installDataVersion(sqlite: Database.Database): void {
  const tables = sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
    name: string;
    sql: string | null;
  }[];
  const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? "")).map((t) => t.name);
  const counted = tables
    .map((t) => t.name)
    .filter((name) => !uncountedTables.has(name) && !virtual.some((v) => name === v || name.startsWith(`${v}_`)));

  sqlite
    .transaction(() => {
      sqlite.exec(
        "CREATE TABLE IF NOT EXISTS data_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);" +
          "INSERT OR IGNORE INTO data_version (id, version) VALUES (1, 0);",
      );
      const bump = "BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; END";
      // A table left out since (or never counted) loses any triggers an earlier start gave it.
      for (const { name } of tables.filter((t) => !counted.includes(t.name))) {
        for (const op of ["insert", "update", "delete"]) sqlite.exec(`DROP TRIGGER IF EXISTS ${quote(`data_version_${name}_${op}`)}`);
      }
      const existing = new Map(
        (sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all() as { name: string; sql: string }[]).map((t) => [
          t.name,
          t.sql,
        ]),
      );
      /** CREATE TRIGGER, after dropping one of that name made differently by an earlier start. */
      const trigger = (name: string, body: string) => {
        const create = `CREATE TRIGGER ${quote(name)} ${body}`;
        const had = existing.get(name);
        if (had === create) return;
        if (had !== undefined) sqlite.exec(`DROP TRIGGER ${quote(name)}`);
        sqlite.exec(create);
      };
      for (const table of counted) {
        const t = quote(table);
        const ignored = UNCOUNTED_COLUMNS[table];
        let updateOf = "";
        if (ignored) {
          const columns = (sqlite.prepare(`PRAGMA table_info(${t})`).all() as { name: string }[]).map((c) => c.name);
          updateOf = ` OF ${columns
            .filter((c) => !ignored.includes(c))
            .map(quote)
            .join(", ")}`;
        }
        trigger(`data_version_${table}_insert`, `AFTER INSERT ON ${t} ${bump}`);
        trigger(`data_version_${table}_update`, `AFTER UPDATE${updateOf} ON ${t} ${bump}`);
        trigger(`data_version_${table}_delete`, `AFTER DELETE ON ${t} ${bump}`);
      }
    })
    .immediate();
}

const readers = new WeakMap<Database.Database, Database.Statement>();

/** The current data version: one indexed read, no render. */
export function readDataVersion(sqlite: Database.Database): number {
  let statement = readers.get(sqlite);
  if (!statement) {
    statement = sqlite.prepare("SELECT version FROM data_version WHERE id = 1").pluck();
    readers.set(sqlite, statement);
  }
  return (statement.get() as number | undefined) ?? 0;
}

/**
 * PostgreSQL's data version is bumped by statement triggers that migrations create (drizzle-kit
 * models no triggers). `npm run db:generate` writes them from the same two lists as SQLite's, into
 * the migration it makes, and `npm run db:check` fails when the triggers the migrations leave differ
 * from the lists (scripts/db-schema.ts). Migrations already shipped are never rewritten: a change of
 * list or of a listed table's columns is a new migration that drops and re-creates what changed.
 */
export type PgTrigger = { table: string; events: string; columns?: string[] };

const PG_TRIGGER =
  /CREATE TRIGGER "([^"]+)" AFTER (.*?) ON "([a-z_0-9]+)" FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"\(\)|DROP TRIGGER "([^"]+)" ON "[a-z_0-9]+"|DROP TABLE "([a-z_0-9]+)"/g;

/** The data-version triggers in force after these migrations (in order), by name. */
export function pgTriggersAfter(migrations: readonly string[]): Map<string, PgTrigger> {
  const triggers = new Map<string, PgTrigger>();
  for (const m of migrations.join("\n").matchAll(PG_TRIGGER)) {
    if (m[4]) triggers.delete(m[4]);
    else if (m[5]) {
      for (const [name, t] of triggers) if (t.table === m[5]) triggers.delete(name);
    } else {
      const of = /^UPDATE OF (.*)$/.exec(m[2]!);
      triggers.set(
        m[1]!,
        of
          ? { table: m[3]!, events: "UPDATE", columns: of[1]!.split(",").map((c) => c.trim().replace(/"/g, "")) }
          : { table: m[3]!, events: m[2]! },
      );
    }
  }
  return triggers;
}

/** The data-version triggers the lists call for, by name, for tables given with their columns in order. */
export function pgTriggersWanted(tables: readonly { name: string; columns: readonly string[] }[]): Map<string, PgTrigger> {
  const wanted = new Map<string, PgTrigger>();
  for (const { name, columns } of tables) {
    if (uncountedTables.has(name)) continue;
    const ignored = UNCOUNTED_COLUMNS[name];
    if (!ignored) {
      wanted.set(`${name}_data_version`, { table: name, events: "INSERT OR UPDATE OR DELETE" });
      continue;
    }
    wanted.set(`${name}_data_version`, { table: name, events: "INSERT OR DELETE" });
    wanted.set(`${name}_data_version_update`, { table: name, events: "UPDATE", columns: columns.filter((c) => !ignored.includes(c)) });
  }
  return wanted;
}

const sameTrigger = (a: PgTrigger, b: PgTrigger) =>
  a.table === b.table &&
  a.events === b.events &&
  JSON.stringify([...(a.columns ?? [])].sort()) === JSON.stringify([...(b.columns ?? [])].sort());

/** The statements that take the triggers from `had` to `wanted` (none when they agree). */
export function pgTriggerStatements(had: Map<string, PgTrigger>, wanted: Map<string, PgTrigger>): string[] {
  const statements: string[] = [];
  for (const [name, t] of had) {
    const want = wanted.get(name);
    if (!want || !sameTrigger(t, want)) statements.push(`DROP TRIGGER ${quote(name)} ON ${quote(t.table)};`);
  }
  for (const [name, t] of wanted) {
    const was = had.get(name);
    if (was && sameTrigger(was, t)) continue;
    const events = t.columns ? `UPDATE OF ${t.columns.map(quote).join(", ")}` : t.events;
    statements.push(
      `CREATE TRIGGER ${quote(name)} AFTER ${events} ON ${quote(t.table)} FOR EACH STATEMENT EXECUTE FUNCTION "data_version_bump"();`,
    );
  }
  return statements;
}
