import client from "prom-client";
import { databasePoolStats } from "./db.server";
import { jobFigures } from "./jobs.server";

/**
 * The process's figures for Prometheus (CONTRACT.md §11 "Operators can see it", ADR 0071,
 * docs/deploy/metrics.md), served by GET /metrics to loopback or a bearer of METRICS_TOKEN:
 * - requests by route (the route's id, never the raw path: ids and names stay out of the labels),
 *   method and status, with their latency (`http_request_duration_seconds`; app/server/request-log);
 * - the visitor page cache's hits and misses (app/web/render-cache);
 * - the PostgreSQL pool's connections (none on SQLite);
 * - each job's runs and failures in this process, and (registered by app/server/jobs-metrics) the
 *   queues the jobs' rows make;
 * - Node's own: CPU, memory, event-loop lag, garbage collection.
 */
export const metricsRegistry = new client.Registry();
client.collectDefaultMetrics({ register: metricsRegistry });

export const httpDuration = new client.Histogram({
  name: "http_request_duration_seconds",
  help: "Requests answered, by route id, method and status, with the time to the last byte",
  labelNames: ["route", "method", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const visitorCacheLookups = new client.Counter({
  name: "visitor_cache_lookups_total",
  help: "Visitor pages drawn from the page cache (hit) or rendered afresh (miss)",
  labelNames: ["result"] as const,
  registers: [metricsRegistry],
});

new client.Gauge({
  name: "db_pool_connections",
  help: "PostgreSQL pool connections by state (total, idle, waiting clients, max); absent on SQLite",
  labelNames: ["state"] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    const pool = databasePoolStats();
    if (!pool) return;
    for (const [state, value] of Object.entries(pool)) this.set({ state }, value);
  },
});

/** A counter per job of one of this process's figures for it (runs, failures). */
const jobCounter = (name: string, help: string, figure: "runs" | "failures") =>
  new client.Counter({
    name,
    help,
    labelNames: ["job"] as const,
    registers: [metricsRegistry],
    collect() {
      this.reset();
      for (const [job, figures] of jobFigures()) this.inc({ job }, figures[figure]);
    },
  });
jobCounter("job_runs_total", "Runs of each background job in this process", "runs");
jobCounter("job_failures_total", "Runs of each background job in this process that failed", "failures");

new client.Gauge({
  name: "job_last_run_duration_seconds",
  help: "How long each background job's last run in this process took",
  labelNames: ["job"] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [job, figures] of jobFigures()) if (figures.lastDurationMs !== null) this.set({ job }, figures.lastDurationMs / 1000);
  },
});

/** The text GET /metrics answers. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  return { body: await metricsRegistry.metrics(), contentType: metricsRegistry.contentType };
}
