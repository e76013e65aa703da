import { AsyncLocalStorage } from "node:async_hooks";
import { inspect } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import { env } from "./env.server";

/**
 * The server's log (docs/decisions/0040-health-logs-backups-shutdown.md): JSON lines on stdout, one
 * per request (request-log.server.ts) and one per server error with its stack, at `LOG_LEVEL`. pino
 * without transports (they run in worker threads and do not survive bundling, STACK.md).
 *
 * Nothing a member typed or holds goes in: no cookie, password, token, reset link or email. The
 * request line is built from an allow-list (method, redacted path, status, duration, member id), and
 * an error is logged with its message and stack only, never the request it came with.
 */
export function createLogger(destination?: DestinationStream, level: string = env.LOG_LEVEL): Logger {
  const options = {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    // A cookie or authorization header can only get in by mistake: never printed if it does.
    redact: {
      paths: ["cookie", "*.cookie", "authorization", "*.authorization", "password", "*.password", "email", "*.email"],
      censor: "[redacted]",
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export let logger: Logger = createLogger();

/** Tests point the log at a stream they read (and put the default back with null). */
export function setLogger(next: Logger | null) {
  logger = next ?? createLogger();
}

/**
 * What the request being served has learned about itself: the member it is for, once known, and the
 * reader's time zone (its `tz` cookie: utils/reader-time.server.ts).
 */
export type RequestNotes = { memberId?: number; timeZone?: string };

export const requestNotes = new AsyncLocalStorage<RequestNotes>();

/** The session code calls this when it finds the request's member (session.server.ts). */
export function noteMember(memberId: number) {
  const notes = requestNotes.getStore();
  if (notes) notes.memberId = memberId;
}

/** One line for a server error: its message and stack, and where it happened (method, safe path). */
export function logServerError(error: unknown, where: { method?: string; path?: string } = {}) {
  const err = error instanceof Error ? error : new Error(inspect(error, { depth: 2, breakLength: Infinity }));
  logger.error({ err, ...where }, "server error");
}
