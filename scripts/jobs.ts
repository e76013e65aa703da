/**
 * The server's background jobs as an operator sees them (CONTRACT.md §11, ADR 0070):
 *
 *   npm run jobs
 *
 * One block per job of app/server/jobs.server.ts: when it runs, whether it is on for this site,
 * what waits in its queue (deliveries owed, retrying, leased, given up; fan-outs unfinished), how
 * often it ran and failed on every process that shares this database, its last run and its last
 * error. Exit code 1 when a delivery has been given up or a job's last run failed. Uses
 * DATABASE_URL (PostgreSQL) or DATABASE_PATH (SQLite) like the server.
 */
import { formatDistanceToNowStrict } from "date-fns";
import { jobsReport } from "../app/server/jobs.server";
import { runOperatorCommand } from "./operator-command";

const ago = (at: Date | null) => (at ? `${formatDistanceToNowStrict(at)} ago` : "never");

async function main(): Promise<number> {
  const report = await jobsReport();
  let trouble = false;
  for (const job of report) {
    const lastFailed = job.lastFailedAt !== null && job.lastRunAt !== null && job.lastFailedAt.getTime() >= job.lastRunAt.getTime();
    if (lastFailed || (job.queue?.failed ?? 0) > 0) trouble = true;
    console.log(`${job.name}${job.enabled ? "" : " (off on this site)"}`);
    console.log(`  runs:      ${job.cadence}`);
    if (job.queue)
      console.log(
        `  queue:     ${Object.entries(job.queue)
          .map(([state, n]) => `${n} ${state}`)
          .join(", ")}`,
      );
    console.log(
      `  last run:  ${ago(job.lastRunAt)}${job.lastDurationMs === null ? "" : `, took ${job.lastDurationMs} ms`}${lastFailed ? " (failed)" : ""}`,
    );
    console.log(`  counted:   ${job.runs} runs, ${job.failures} failed`);
    if (job.lastError) console.log(`  last error (${ago(job.lastFailedAt)}): ${job.lastError}`);
  }
  return trouble ? 1 : 0;
}

await runOperatorCommand(main);
