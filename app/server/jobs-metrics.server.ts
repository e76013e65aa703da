import client from "prom-client";
import { logServerError } from "~/utils/logger.server";
import { metricsRegistry } from "~/utils/metrics.server";
import { JOBS } from "./jobs.server";

/**
 * The jobs' queues on /metrics: what waits in their rows, by state (deliveries owed, retrying,
 * leased, given up; fan-outs unfinished), read from the database at each scrape, so every node shows
 * the same shared figures. Registered once, by the server's start-up.
 */
let registered = false;
export function registerJobMetrics(): void {
  if (registered) return;
  registered = true;
  new client.Gauge({
    name: "job_queue_rows",
    help: "Rows waiting for a background job, by job and state (shared by every node on the database)",
    labelNames: ["job", "state"] as const,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const job of JOBS) {
        if (!job.queue) continue;
        try {
          for (const [state, value] of Object.entries(await job.queue())) this.set({ job: job.name, state }, value);
        } catch (error) {
          logServerError(error, { path: "/metrics" });
        }
      }
    },
  });
}
