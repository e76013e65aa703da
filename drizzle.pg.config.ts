import { defineConfig } from "drizzle-kit";

/**
 * PostgreSQL's migrations, made from db/schema-pg.ts (itself made from db/schema-sqlite.ts) by
 * `npm run db:generate`, which also writes the data-version triggers; never run drizzle-kit on this
 * config alone (docs/database.md).
 */
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema-pg.ts",
  out: "./db/migrations-pg",
  dbCredentials: { url: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:55432/postgres" },
});
