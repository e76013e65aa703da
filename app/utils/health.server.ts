/**
 * `GET /healthz` (CONTRACT.md §6, §9): the database answers a real read, or the reason it does not,
 * and which engine answers. No session, no rate limit, nothing cached; a process that is shutting
 * down says so, so a proxy or load balancer stops sending it requests
 * (docs/decisions/0040-health-logs-backups-shutdown.md).
 */
export type Engine = "sqlite" | "postgres";
export type Health = { ok: true; database: Engine } | { ok: false; database: Engine; reason: string };

/** A read every site's database can answer: the query a health check runs. */
export const HEALTH_PROBE = "SELECT id FROM users LIMIT 1";

export async function checkHealth(database: Engine, read: () => Promise<unknown>, shuttingDown = false): Promise<Health> {
  if (shuttingDown) return { ok: false, database, reason: "shutting down" };
  try {
    await read();
    return { ok: true, database };
  } catch (error) {
    return { ok: false, database, reason: `database: ${(error as Error).message}` };
  }
}

export function healthResponse(health: Health): Response {
  return new Response(JSON.stringify(health), {
    status: health.ok ? 200 : 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
