import { logServerError } from "./logger.server";

/**
 * A background job of the server (pruning, backfills): run now and then every `everyMs`, never
 * inside a request, never overlapping itself, and never keeping the process alive (the timer is
 * unref'd). A failure is logged as a server error under the job's name and the next run tries again.
 * Returns a function that stops it (the clean shutdown calls it, ADR 0040).
 */
export function runEvery(name: string, everyMs: number, job: () => Promise<unknown>): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    void job()
      .catch((error: unknown) => logServerError(error, { path: `job:${name}` }))
      .finally(() => (running = false));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
