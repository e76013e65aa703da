import { defineConfig } from "drizzle-kit";

/** PostgreSQL schema and migrations (issue 25): `npx drizzle-kit generate --config drizzle.pg.config.ts`. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema-pg.ts",
  out: "./db/migrations-pg",
  dbCredentials: { url: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:55432/postgres" },
});
