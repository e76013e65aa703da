import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Each test file runs in its own process against its own throw-away SQLite file, migrated on open.
 * Rate limits are off unless a test turns them on (setRateLimitsEnabled).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-test-"));
process.env.DATABASE_PATH = path.join(dir, "test.db");
process.env.UPLOAD_DIR = path.join(dir, "uploads");
process.env.RATE_LIMITS = "off";
process.env.SEED_DEMO = "0";
process.env.NODE_ENV = "test";
