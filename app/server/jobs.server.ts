import { sql } from "drizzle-orm";
import { jobRuns } from "#db/schema";
import { eventJobQueue, scheduleEventJobs } from "~/models/clubs/club-event-jobs.server";
import { scheduleUploadPruning } from "~/models/media/media.server";
import { scheduleVariantBackfill } from "~/models/media/media-variants.server";
import { digestQueue, scheduleDigests } from "~/models/notifications/notification-mail.server";
import { deliveryQueue, scheduleDeliveries, scheduleReadPruning } from "~/models/notifications/notification-delivery.server";
import { fanoutQueue, scheduleFanouts } from "~/models/notifications/notification-fanout.server";
import { scheduleActPruning } from "~/models/notifications/notification.server";
import { scheduleSharePruning } from "~/models/media/incoming-share.server";
import { scheduleResumablePruning } from "~/models/media/resumable-upload.server";
import { scheduleBackups } from "~/utils/operations/backup.server";
import { db, sqlite } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { logger, logServerError } from "~/utils/logger.server";
import { recordJobRunsWith, type JobRun } from "~/utils/jobs.server";
import { mailSettings } from "~/utils/mail.server";

/**
 * Every background job of the server, in one list (CONTRACT.md §11, ADR 0070; docs/jobs.md says how
 * to add one). Each has its name (as counted in `job_runs` and on /metrics), when it runs, how it
 * starts (returning its stop) and, where work waits in rows, how deep that queue is. The server
 * starts them all after its start-up (startup.server.ts) and stops them all on SIGTERM
 * (shutdown.server.ts); `npm run jobs` prints them with their figures.
 */
export type JobDefinition = {
  name: string;
  cadence: string;
  start: () => () => void;
  /** What waits, by state (rows are the queue): `npm run jobs` and /metrics show it. */
  queue?: () => Promise<Record<string, number>>;
};

const noStop = () => () => {};

export const JOBS: JobDefinition[] = [
  {
    name: "notification-delivery",
    cadence: "after each notification's commit, and every minute",
    start: () => scheduleDeliveries(),
    queue: () => deliveryQueue(),
  },
  {
    name: "notification-fanout",
    cadence: "after each club post's commit, and every 30 seconds",
    start: () => scheduleFanouts(),
    queue: () => fanoutQueue(),
  },
  {
    name: "club-event-notices",
    cadence: "after each club hunt's commit, and every minute (reminders 24 hours before)",
    start: () => scheduleEventJobs(),
    queue: () => eventJobQueue(),
  },
  {
    name: "notification-digests",
    cadence: "every 15 minutes, where SMTP is configured",
    start: () => scheduleDigests(),
    queue: () => digestQueue(),
  },
  { name: "notification-prune", cadence: "hourly (read notifications older than 90 days)", start: () => scheduleReadPruning() },
  { name: "prune-notification-acts", cadence: "hourly (the 24-hour memory of toggled acts)", start: () => scheduleActPruning() },
  { name: "prune-uploads", cadence: "at start, then every 6 hours", start: () => scheduleUploadPruning() },
  {
    name: "prune-incoming-shares",
    cadence: "at start, then every 10 minutes (shares older than an hour)",
    start: () => scheduleSharePruning(),
  },
  { name: "prune-resumable-uploads", cadence: "at start, then hourly", start: () => scheduleResumablePruning() },
  {
    name: "variant-backfill",
    cadence: "once, at start",
    start: () => {
      scheduleVariantBackfill();
      return () => {};
    },
  },
  {
    name: "backup",
    cadence: "every BACKUP_INTERVAL_HOURS, where set",
    start: () =>
      env.BACKUP_INTERVAL_HOURS
        ? scheduleBackups(sqlite, env, {
            done: ({ file, pruned, bucket }) => logger.info({ file, pruned: pruned.length, bucket: bucket?.database }, "backup taken"),
            failed: (error) => logServerError(error, { path: "job:backup" }),
          })
        : noStop(),
  },
];

/** One upsert per run: counts add up across processes (two nodes each run their jobs). */
async function noteRun({ name, started, finished, failure }: JobRun) {
  const failed = failure !== null;
  const error = failed ? String((failure as Error)?.message ?? failure).slice(0, 500) : null;
  const at = new Date(finished);
  await db
    .insert(jobRuns)
    .values({
      name,
      runs: 1,
      failures: failed ? 1 : 0,
      lastStartedAt: new Date(started),
      lastFinishedAt: at,
      lastDurationMs: finished - started,
      lastError: error,
      lastFailedAt: failed ? at : null,
    })
    .onConflictDoUpdate({
      target: jobRuns.name,
      set: {
        runs: sql`${jobRuns.runs} + 1`,
        failures: sql`${jobRuns.failures} + ${failed ? 1 : 0}`,
        lastStartedAt: new Date(started),
        lastFinishedAt: at,
        lastDurationMs: finished - started,
        ...(failed ? { lastError: error, lastFailedAt: at } : {}),
      },
    });
}
recordJobRunsWith(noteRun);

/** Whether a job does anything on this site (digests need SMTP, backups an interval). */
export function jobEnabled(job: JobDefinition): boolean {
  if (job.name === "notification-digests") return mailSettings() !== null;
  if (job.name === "backup") return Boolean(env.BACKUP_INTERVAL_HOURS);
  return true;
}

/** Starts every job; the function returned stops them all. */
export function startJobs(jobs: JobDefinition[] = JOBS): () => void {
  const stops = jobs.map((job) => job.start());
  return () => {
    for (const stop of stops) stop();
  };
}

/** One job as `npm run jobs` prints it: its figures from every process that ran it (`job_runs`). */
export type JobReport = {
  name: string;
  cadence: string;
  enabled: boolean;
  queue: Record<string, number> | null;
  runs: number;
  failures: number;
  lastRunAt: Date | null;
  lastDurationMs: number | null;
  lastError: string | null;
  lastFailedAt: Date | null;
};

export async function jobsReport(jobs: JobDefinition[] = JOBS): Promise<JobReport[]> {
  const rows = new Map((await db.select().from(jobRuns)).map((row) => [row.name, row]));
  return Promise.all(
    jobs.map(async (job) => {
      const row = rows.get(job.name);
      return {
        name: job.name,
        cadence: job.cadence,
        enabled: jobEnabled(job),
        queue: job.queue ? await job.queue() : null,
        runs: Number(row?.runs ?? 0),
        failures: Number(row?.failures ?? 0),
        lastRunAt: row?.lastFinishedAt ?? null,
        lastDurationMs: row?.lastDurationMs ?? null,
        lastError: row?.lastError ?? null,
        lastFailedAt: row?.lastFailedAt ?? null,
      };
    }),
  );
}
