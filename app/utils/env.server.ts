import { z } from "zod";

/** CONTRACT.md §1. Parsed once, at start-up; a bad value stops the server with one clear line. */
const flag = z
  .enum(["0", "1", "true", "false", "on", "off", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "on");

/** A duration in milliseconds (slow-client limits, docs/decisions/0023-slow-client-timeouts.md). */
const ms = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(100)
    .max(24 * 3_600_000)
    .default(fallback);

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    DATABASE_PATH: z.string().min(1).default("./data/app.db"),
    /** CONTRACT.md §9: `postgres://user:password@host:port/database` runs the site on PostgreSQL; unset, the SQLite file at DATABASE_PATH. */
    DATABASE_URL: z
      .url({ protocol: /^postgres(?:ql)?$/, error: "must be postgres://user:password@host:port/database (or unset for the SQLite file)" })
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** Connections each process keeps open to PostgreSQL. */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    UPLOAD_DIR: z.string().min(1).default("./data/uploads"),
    SESSION_SECRET: z.string().optional(),
    S3_BUCKET: z.string().optional(),
    S3_ENDPOINT: z.string().url().optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_PUBLIC_URL: z.string().url().optional(),
    RATE_LIMITS: z
      .enum(["on", "off", ""])
      .optional()
      .transform((v) => v !== "off"),
    /** CONTRACT.md §8 first-day caps (models/moderation/new-account-limits.server.ts): hours after sign-up they hold; 0 turns them off. */
    NEW_ACCOUNT_HOURS: z.coerce
      .number()
      .min(0)
      .max(24 * 365)
      .default(24),
    /** CONTRACT.md §8: a post or comment reported by this many different members is hidden until a moderator decides. */
    AUTO_HIDE_REPORTS: z.coerce.number().int().min(1).max(1000).default(3),
    SEED_DEMO: flag,
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    /** CONTRACT.md §11: GET /metrics answers anyone presenting `Authorization: Bearer` this (at least 16 characters); loopback only without it. */
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    /** Where the server listens (security-2 N5): unset means 127.0.0.1 behind a proxy, every interface otherwise. */
    HOST: z
      .string()
      .regex(/^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|[0-9A-Fa-f:.]+)$/, "must be an address to listen on, e.g. 127.0.0.1 or 0.0.0.0")
      .optional(),
    HEADERS_TIMEOUT_MS: ms(10_000),
    REQUEST_TIMEOUT_MS: ms(30_000),
    UPLOAD_TIMEOUT_MS: ms(3_600_000),
    IDLE_TIMEOUT_MS: ms(30_000),
    KEEP_ALIVE_TIMEOUT_MS: ms(5_000),
    /** The site's address as members reach it: links in mail and from the operator command (ADR 0028). */
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: "must be the site's address, e.g. https://pulse.example.org" })
      .transform((v) => new URL(v).origin)
      .optional(),
    /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`: password-reset mail. */
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be smtp://user:pass@host:port or smtps://…" }).optional(),
    MAIL_FROM: z.string().optional(),
    /** Where a suspended member writes with a question or an appeal: their sign-in's notice names it (ux-3 U7). */
    CONTACT_EMAIL: z.email({ error: "must be an email address, e.g. moderators@pulse.example.org" }).optional(),
    /**
     * ux-3 U21 (docs/decisions/0085): an instant notification mail waits this long after the
     * notification, so that a removal, an auto-hide after reports or reading it on the site meanwhile
     * stops it; 0 sends at once. At most 10 minutes: past that it is not instant any more.
     */
    INSTANT_MAIL_DELAY_SECONDS: z.coerce.number().int().min(0).max(600).default(120),
    /** Tests only (CONTRACT.md §7): web-push endpoints may be http or on a private address (a local push server). */
    PUSH_ALLOW_PRIVATE: flag,
    /** Operators (docs/decisions/0040-health-logs-backups-shutdown.md). */
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    BACKUP_DIR: z.string().min(1).default("./data/backups"),
    /** 0: the server takes no backups itself (`npm run backup` from cron or a timer does). */
    BACKUP_INTERVAL_HOURS: z.coerce
      .number()
      .min(0)
      .max(24 * 30)
      .default(0),
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
    /** Memory for visitors' pages drawn once and sent again (server/visitor-cache.server.ts); 0 turns it off. */
    VISITOR_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(32),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && (!env.SESSION_SECRET || env.SESSION_SECRET.length < 16)) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "is required in production (at least 16 characters, e.g. `openssl rand -hex 32`)",
      });
    }
    if (env.NODE_ENV === "production" && env.PUSH_ALLOW_PRIVATE) {
      ctx.addIssue({ code: "custom", path: ["PUSH_ALLOW_PRIVATE"], message: "is for tests only and must not be set in production" });
    }
    // Reset links in mail are built from PUBLIC_URL only, never from a request's Host (ADR 0028).
    for (const name of ["PUBLIC_URL", "MAIL_FROM"] as const) {
      if (env.SMTP_URL && !env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when SMTP_URL is set" });
    }
  });

export type Env = z.infer<typeof schema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings (as .env.example leaves them) mean "not set".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  return result.data;
}

/**
 * Where the server listens, and why, for the start-up line (app/server/node-server.server.ts). The server listens
 * on `HOST`, or on every interface without it. Behind a reverse proxy (`TRUST_PROXY` > 0) the app
 * listens on loopback unless told otherwise, so nobody reaches it past the proxy (whose
 * `X-Forwarded-For` sets the per-address limits).
 */
export function listenAddress(e: Pick<Env, "HOST" | "TRUST_PROXY" | "PORT">): { host: string | undefined; why: string } {
  if (e.HOST) return { host: e.HOST, why: "HOST is set" };
  if (e.TRUST_PROXY > 0)
    return {
      host: "127.0.0.1",
      why: `TRUST_PROXY=${e.TRUST_PROXY} and HOST unset: only a proxy on this machine reaches the app; set HOST (e.g. 0.0.0.0) if the proxy runs elsewhere`,
    };
  return {
    host: undefined,
    why: "HOST unset and TRUST_PROXY=0: every interface; behind a reverse proxy set TRUST_PROXY, or HOST=127.0.0.1",
  };
}

function loadEnv(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    // One clear line, no stack trace, and a non-zero exit.
    console.error(`Whitetail Pulse cannot start. ${(error as Error).message}`);
    process.exit(1);
  }
}

export const env: Env = loadEnv();

const DEV_SECRET = "whitetail-pulse-development-secret-not-for-production";
export const sessionSecret = env.SESSION_SECRET ?? DEV_SECRET;
export const isProduction = env.NODE_ENV === "production";
