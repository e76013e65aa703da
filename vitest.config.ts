import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "#db": fileURLToPath(new URL("./db", import.meta.url)),
      "#tests": fileURLToPath(new URL("./tests", import.meta.url)),
    },
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "tests/integration/**/*.test.{ts,tsx}"],
    setupFiles: ["tests/setup/env.ts"],
    // With TEST_DATABASE_URL, every file runs on a PostgreSQL database of its own (CONTRACT.md §9).
    globalSetup: ["tests/setup/postgres.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
