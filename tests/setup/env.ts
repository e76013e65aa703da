import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Each test file runs in its own process against its own throw-away database: a SQLite file,
 * migrated on open, or with TEST_DATABASE_URL set, a PostgreSQL database copied from the migrated
 * template (tests/setup/postgres.ts). Rate limits are off unless a test turns them on
 * (setRateLimitsEnabled).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-test-"));
process.env.DATABASE_PATH = path.join(dir, "test.db");
process.env.UPLOAD_DIR = path.join(dir, "uploads");
process.env.RATE_LIMITS = "off";
process.env.SEED_DEMO = "0";
process.env.NODE_ENV = "test";

const base = process.env.TEST_DATABASE_URL;
if (base && process.env.TEST_DATABASE_TEMPLATE) {
  const { default: pg } = await import("pg");
  const { databaseUrl, TEST_DATABASE_PREFIX } = await import("./postgres");
  const name = `${TEST_DATABASE_PREFIX}${process.env.TEST_DATABASE_RUN}${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  // Copies of one template made at the same moment can collide on the template's lock: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${process.env.TEST_DATABASE_TEMPLATE}"`);
      break;
    } catch (error) {
      if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
  await admin.end();
  process.env.DATABASE_URL = databaseUrl(base, name);
}
