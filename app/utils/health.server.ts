import type Database from "better-sqlite3";

/**
 * `GET /healthz` (CONTRACT.md §6): the database answers a real read, or the reason it does not.
 * No session, no rate limit, nothing cached; a process that is shutting down says so, so a proxy
 * or load balancer stops sending it requests (docs/decisions/0040-health-logs-backups-shutdown.md).
 */
export type Health = { ok: true } | { ok: false; reason: string };

export function checkHealth(sqlite: Database.Database, shuttingDown = false): Health {
  if (shuttingDown) return { ok: false, reason: "shutting down" };
  try {
    sqlite.prepare("SELECT id FROM users LIMIT 1").all();
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `database: ${(error as Error).message}` };
  }
}

export function healthResponse(health: Health): Response {
  return new Response(JSON.stringify(health), {
    status: health.ok ? 200 : 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
