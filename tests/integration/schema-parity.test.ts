import fs from "node:fs";
import { getTableColumns, is, SQL, type InferInsertModel, type InferSelectModel } from "drizzle-orm";
import { getTableConfig as pgTableConfig, PgDialect, PgTable, type IndexedColumn } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteTableConfig, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { pgTriggersAfter, pgTriggerStatements, pgTriggersWanted } from "~/utils/db/data-version.server";
import * as pgSchema from "#db/schema-pg";
import * as sqliteSchema from "#db/schema-sqlite";
import type * as SqliteTypes from "#db/schema";

/**
 * One set of models runs on SQLite and PostgreSQL (issue 25, CONTRACT.md §9). PostgreSQL's tables
 * are built from the SQLite schema by db/pg-tables.ts (ADR 0075); this test states the mapping a
 * second time, independently, so a rule changed there by mistake fails here: the same tables,
 * columns, indexes, primary keys and foreign keys. Needs no database: it compares drizzle's own
 * table configs. The differences the engines force on us are listed below, each with its reason;
 * anything else fails.
 */

const sqliteTables = Object.fromEntries(Object.entries(sqliteSchema).filter(([, v]) => is(v, SQLiteTable))) as Record<string, SQLiteTable>;
const pgTables = Object.fromEntries(Object.entries(pgSchema).filter(([, v]) => is(v, PgTable))) as Record<string, PgTable>;

/** Index expressions that differ on purpose, per `table.index`: [SQLite, PostgreSQL] normalized. */
const ALLOWED_INDEX_COLUMNS: Record<string, { sqlite: string[]; pg: string[]; reason: string }> = {
  "users.users_username_nocase": {
    sqlite: ["username collate nocase"],
    pg: ["lower(username)"],
    reason: "case-blind uniqueness: NOCASE is SQLite's collation; PostgreSQL has none, so the index is on lower()",
  },
  "released_usernames.released_usernames_nocase": {
    sqlite: ["username collate nocase"],
    pg: ["lower(username)"],
    reason: "held usernames compare like users.username: NOCASE on SQLite, lower() on PostgreSQL",
  },
  "users.users_email_unique": {
    sqlite: ["email"],
    pg: ["lower(email)"],
    reason: "emails are stored lower-cased; on PostgreSQL the index also refuses a differently-cased copy a raw insert might make",
  },
};

/** Column kinds as drizzle reports them (`dataType`), SQLite -> PostgreSQL, with the SQL type where it matters. */
const KIND: Record<string, string> = {
  number: "number",
  string: "string",
  boolean: "boolean",
  json: "json",
  // timestamp_ms (integer ms, a Date in JS) -> a customType over bigint, also a Date in JS.
  date: "custom:bigint",
};

/** SQL defaults that say the same thing in each dialect: [SQLite, PostgreSQL] normalized. */
const SAME_SQL_DEFAULTS: [string, string, string][] = [
  [
    "(cast(unixepoch('subsec') * 1000 as integer))",
    "(floor(extract(epoch from clock_timestamp()) * 1000))::bigint",
    "now in integer milliseconds",
  ],
  ["'[]'", "'[]'::jsonb", "an empty JSON array"],
];

const sqliteDialect = new SQLiteSyncDialect();
const pgDialect = new PgDialect();

/** SQL text without table qualifiers, quotes, case or extra spaces, so both dialects' renderings compare. */
function normalize(text: string): string {
  return text
    .replace(/"[a-z_0-9]+"\./gi, "")
    .replace(/["`]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}
const sqlText = (value: SQL, dialect: SQLiteSyncDialect | PgDialect) => normalize(dialect.sqlToQuery(value).sql);

type Shape = {
  columns: Record<
    string,
    {
      key: string;
      notNull: boolean;
      hasDefault: boolean;
      primary: boolean;
      unique: boolean;
      kind: string;
      enumValues?: string[];
      default: unknown;
    }
  >;
  primaryKeys: string[][];
  indexes: Record<string, { columns: string[]; unique: boolean; where: string | null }>;
  foreignKeys: { columns: string[]; table: string; foreignColumns: string[]; onDelete: string | undefined }[];
};

function sqliteShape(table: SQLiteTable): Shape {
  const config = sqliteTableConfig(table);
  const keys = new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [column.name, key]));
  return {
    columns: Object.fromEntries(
      config.columns.map((c) => [
        c.name,
        {
          key: keys.get(c.name)!,
          notNull: c.notNull,
          hasDefault: c.hasDefault,
          primary: c.primary,
          unique: c.isUnique,
          kind: KIND[c.dataType] ?? `unmapped:${c.dataType}`,
          enumValues: c.enumValues,
          default: is(c.default, SQL) ? sqlText(c.default, sqliteDialect) : c.default,
        },
      ]),
    ),
    primaryKeys: config.primaryKeys.map((pk) => pk.columns.map((c) => c.name)),
    indexes: Object.fromEntries(
      config.indexes.map((i) => [
        i.config.name,
        {
          columns: i.config.columns.map((c) => (is(c, SQL) ? sqlText(c, sqliteDialect) : c.name)),
          unique: i.config.unique,
          where: i.config.where ? sqlText(i.config.where, sqliteDialect) : null,
        },
      ]),
    ),
    foreignKeys: config.foreignKeys.map((fk) => {
      const ref = fk.reference();
      return {
        columns: ref.columns.map((c) => c.name),
        table: sqliteTableConfig(ref.foreignTable).name,
        foreignColumns: ref.foreignColumns.map((c) => c.name),
        onDelete: fk.onDelete,
      };
    }),
  };
}

function pgShape(table: PgTable): Shape {
  const config = pgTableConfig(table);
  const keys = new Map(Object.entries(getTableColumns(table)).map(([key, column]) => [column.name, key]));
  const sqliteDefaultOf = new Map(SAME_SQL_DEFAULTS.map(([sqlite, pg]) => [normalize(pg), normalize(sqlite)]));
  return {
    columns: Object.fromEntries(
      config.columns.map((c) => {
        const pgDefault = is(c.default, SQL) ? sqlText(c.default, pgDialect) : c.default;
        return [
          c.name,
          {
            key: keys.get(c.name)!,
            notNull: c.notNull,
            hasDefault: c.hasDefault,
            primary: c.primary,
            unique: c.isUnique,
            kind: c.dataType === "custom" ? `custom:${c.getSQLType()}` : c.dataType,
            enumValues: c.enumValues,
            // Written in SQLite's terms where the two say the same thing.
            default: typeof pgDefault === "string" && sqliteDefaultOf.has(pgDefault) ? sqliteDefaultOf.get(pgDefault) : pgDefault,
          },
        ];
      }),
    ),
    primaryKeys: config.primaryKeys.map((pk) => pk.columns.map((c) => c.name)),
    indexes: Object.fromEntries(
      config.indexes.map((i) => {
        const allowed = ALLOWED_INDEX_COLUMNS[`${config.name}.${i.config.name}`];
        const columns = i.config.columns.map((c) => (is(c, SQL) ? sqlText(c, pgDialect) : (c as IndexedColumn).name!));
        return [
          i.config.name!,
          {
            // Written in SQLite's terms where the difference is an allowed one.
            columns: allowed && JSON.stringify(columns) === JSON.stringify(allowed.pg) ? allowed.sqlite : columns,
            unique: i.config.unique,
            where: i.config.where ? sqlText(i.config.where, pgDialect) : null,
          },
        ];
      }),
    ),
    foreignKeys: config.foreignKeys.map((fk) => {
      const ref = fk.reference();
      return {
        columns: ref.columns.map((c) => c.name),
        table: pgTableConfig(ref.foreignTable).name,
        foreignColumns: ref.foreignColumns.map((c) => c.name),
        onDelete: fk.onDelete,
      };
    }),
  };
}

const byName = <T extends SQLiteTable | PgTable>(tables: Record<string, T>, config: (t: T) => { name: string }) =>
  Object.fromEntries(Object.entries(tables).map(([exportName, t]) => [config(t).name, { exportName, table: t }]));
const sqliteByName = byName(sqliteTables, sqliteTableConfig);
const pgByName = byName(pgTables, pgTableConfig);
const sortFks = (fks: Shape["foreignKeys"]) => [...fks].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe("the SQLite and PostgreSQL schemas", () => {
  it("have the same tables under the same export names, and db/schema-pg.ts exports nothing else", () => {
    expect(Object.keys(sqliteTables).length).toBeGreaterThan(10);
    expect(Object.keys(pgByName).sort()).toEqual(Object.keys(sqliteByName).sort());
    for (const [name, { exportName }] of Object.entries(sqliteByName)) expect(pgByName[name]?.exportName, name).toBe(exportName);
    expect(Object.keys(pgSchema).sort()).toEqual(Object.keys(pgTables).sort());
  });

  for (const name of Object.keys(sqliteByName).sort()) {
    describe(name, () => {
      const sqlite = sqliteShape(sqliteByName[name]!.table);
      const pg = pgByName[name] ? pgShape(pgByName[name].table) : null;

      it("has the same columns (name, JS property, kind, not null, default, primary key, enum values)", () => {
        expect(pg?.columns).toEqual(sqlite.columns);
        expect(pg?.primaryKeys).toEqual(sqlite.primaryKeys);
      });

      it("has the same indexes (name, columns or expression, unique, partial WHERE)", () => {
        expect(pg?.indexes).toEqual(sqlite.indexes);
      });

      it("has the same foreign keys (columns, target, ON DELETE)", () => {
        expect(sortFks(pg?.foreignKeys ?? [])).toEqual(sortFks(sqlite.foreignKeys));
      });
    });
  }

  it("lists no allowed difference that no longer exists", () => {
    for (const [key, allowed] of Object.entries(ALLOWED_INDEX_COLUMNS)) {
      const [table, index] = key.split(".") as [string, string];
      const pgIndex = pgTableConfig(pgByName[table]!.table).indexes.find((i) => i.config.name === index);
      expect(
        pgIndex?.config.columns.map((c) => (is(c, SQL) ? sqlText(c, pgDialect) : (c as IndexedColumn).name)),
        `${key}: ${allowed.reason}`,
      ).toEqual(allowed.pg);
      expect(sqliteShape(sqliteByName[table]!.table).indexes[index]?.columns, key).toEqual(allowed.sqlite);
    }
  });
});

describe("the PostgreSQL data version (db/migrations-pg/*_search_and_data_version.sql)", () => {
  // Bookkeeping tables and columns (a session's sliding expiry, the delivery's marks, the digest
  // job's digest_at) move no data version; every other write does, as SQLite's triggers made from
  // the same lists. `npm run db:generate` writes the triggers a change calls for; `db:check` fails
  // without them, and so does this.
  it("is bumped by statement triggers exactly as UNCOUNTED_TABLES and UNCOUNTED_COLUMNS say", () => {
    const folder = "db/migrations-pg";
    const journal = JSON.parse(fs.readFileSync(`${folder}/meta/_journal.json`, "utf8")) as { entries: { tag: string }[] };
    const had = pgTriggersAfter(journal.entries.map((e) => fs.readFileSync(`${folder}/${e.tag}.sql`, "utf8")));
    const tables = Object.keys(pgByName).map((name) => ({
      name,
      columns: pgTableConfig(pgByName[name]!.table).columns.map((c) => c.name),
    }));
    expect(pgTriggerStatements(had, pgTriggersWanted(tables))).toEqual([]);
    expect(had.size).toBeGreaterThan(20);
  });
});

// The models are written once against the SQLite tables' types; the PostgreSQL tables must read and
// write the same JS shapes (checked by `npm run typecheck`, not at run time).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type TableNames = {
  [K in keyof typeof pgSchema]: K extends keyof typeof SqliteTypes ? K : never;
}[keyof typeof pgSchema];
type Mismatched = {
  [K in TableNames]: Same<InferSelectModel<(typeof SqliteTypes)[K]>, InferSelectModel<(typeof pgSchema)[K]>> extends true
    ? Same<InferInsertModel<(typeof SqliteTypes)[K]>, InferInsertModel<(typeof pgSchema)[K]>> extends true
      ? never
      : K
    : K;
}[TableNames];
const noMismatch: [Mismatched] extends [never] ? true : Mismatched = true;
void noMismatch;
