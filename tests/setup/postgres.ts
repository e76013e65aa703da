import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";

/**
 * vitest's global setup for a run on PostgreSQL (`TEST_DATABASE_URL=postgres://… npm run test:unit`,
 * CONTRACT.md §9): the migrations are applied once to a template database, and every test file then
 * gets a database of its own copied from it (tests/setup/env.ts), as each gets its own SQLite file
 * on the default run. Everything made here is dropped at the end. Without TEST_DATABASE_URL it does
 * nothing.
 */
export const TEST_DATABASE_PREFIX = "whitetail_test_";

export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

async function dropOurs(admin: pg.Client, run: string) {
  const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
    `${TEST_DATABASE_PREFIX}${run}%`,
  ]);
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
}

export default async function setup() {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return;
  const run = `${process.pid}_`;
  const template = `${TEST_DATABASE_PREFIX}${run}template`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await dropOurs(admin, run);
  await admin.query(`CREATE DATABASE "${template}"`);
  const client = new pg.Client({ connectionString: databaseUrl(base, template) });
  await client.connect();
  await migrate(drizzle(client), { migrationsFolder: "db/migrations-pg" });
  await client.end();
  // The test files' processes start after this and inherit it.
  process.env.TEST_DATABASE_TEMPLATE = template;
  process.env.TEST_DATABASE_RUN = run;
  return async () => {
    await dropOurs(admin, run);
    await admin.end();
  };
}
