import { logServerError } from "./logger.server";

/**
 * A background job of the server (deliveries, fan-outs, digests, pruning, backups): run now (or
 * first after `everyMs`, `startNow: false`) and then every `everyMs`, never inside a request,
 * never overlapping itself, and never keeping the process alive (the timer is unref'd). A failure
 * is logged as a server error under the job's name (or handed to `onError`) and the next run tries
 * again. Every run is counted here, for /metrics, and handed to the recorder the server sets (its
 * `job_runs` row, for `npm run jobs` on any process; ADR 0070). This file opens no database: the
 * operator commands that import a job's code (npm run backup) stay off the site's. Returns a function that stops it (the clean shutdown calls it, ADR 0040).
 * The server's jobs are listed in one place: app/server/jobs.server.ts.
 */
export function runEvery(
  name: string,
  everyMs: number,
  job: () => Promise<unknown>,
  { startNow = true, onError }: { startNow?: boolean; onError?: (error: unknown) => void } = {},
): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    void runCounted(name, job, onError).finally(() => (running = false));
  };
  if (startNow) run();
  const timer = setInterval(run, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * The retry policy of jobs kept as rows (deliveries, fan-outs, digests; ADR 0069): a run leases the
 * rows it takes for LEASE_MS, well past a batch's sends (SMTP gives up within 30 s); a failed try
 * waits 1, 2, 4 … minutes, an hour at most; after MAX_ATTEMPTS tries, about six hours of an outage,
 * the row is given up and counted.
 */
export const LEASE_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 60_000;
const LONGEST_WAIT_MS = 60 * 60_000;

/** The wait before try `attempts + 1`. */
export const backoffMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_WAIT_MS);

/** A row's try failed at `at`: its new attempt count, and when it goes again or that it is given up. */
export function afterFailedTry(attemptsBefore: number, at: Date): { attempts: number; givenUp: boolean; nextAttemptAt: Date } {
  const attempts = attemptsBefore + 1;
  return { attempts, givenUp: attempts >= MAX_ATTEMPTS, nextAttemptAt: new Date(at.getTime() + backoffMs(attempts)) };
}

/**
 * A queue of job rows worked through in batches (`runBatch` answers whether it did anything): `drain`
 * runs batches until none is due, one per turn (other requests go between), never two drains at
 * once (a second caller joins the first); `nudge` starts one right after a write commits, rather
 * than at the schedule's next tick, and leaves failures to the schedule, which logs and retries.
 */
export function batchDrainer(runBatch: () => Promise<boolean>): { drain: () => Promise<void>; nudge: () => void } {
  let draining: Promise<void> | null = null;
  const drain = () =>
    (draining ??= (async () => {
      try {
        while (await runBatch()) await new Promise((resolve) => setImmediate(resolve));
      } finally {
        draining = null;
      }
    })());
  return { drain, nudge: () => void drain().catch(() => undefined) };
}

/** A job run once, at start (a backfill): counted like the others. */
export function runOnce(name: string, job: () => Promise<unknown>): void {
  void runCounted(name, job);
}

/** This process's figures for one job since it started (/metrics). */
export type JobFigures = { runs: number; failures: number; lastDurationMs: number | null; lastFinishedAt: number | null };
const figures = new Map<string, JobFigures>();

export function jobFigures(): Map<string, JobFigures> {
  return figures;
}

async function runCounted(name: string, job: () => Promise<unknown>, onError?: (error: unknown) => void): Promise<void> {
  const started = Date.now();
  let failure: unknown = null;
  try {
    await job();
  } catch (error) {
    failure = error;
    if (onError) onError(error);
    else logServerError(error, { path: `job:${name}` });
  }
  const finished = Date.now();
  const mine = figures.get(name) ?? { runs: 0, failures: 0, lastDurationMs: null, lastFinishedAt: null };
  figures.set(name, {
    runs: mine.runs + 1,
    failures: mine.failures + (failure ? 1 : 0),
    lastDurationMs: finished - started,
    lastFinishedAt: finished,
  });
  await recorder?.({ name, started, finished, failure }).catch((error: unknown) => logServerError(error, { path: `job:${name}:note` }));
}

/** One finished run, as the recorder gets it. */
export type JobRun = { name: string; started: number; finished: number; failure: unknown };
let recorder: ((run: JobRun) => Promise<void>) | null = null;

/** Where each run is also written (app/server/jobs.server.ts: the `job_runs` table). */
export function recordJobRunsWith(next: ((run: JobRun) => Promise<void>) | null): void {
  recorder = next;
}
