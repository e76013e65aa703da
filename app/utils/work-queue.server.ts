import { AppError } from "./errors";

/**
 * A bounded queue for CPU-heavy work (image processing, docs/decisions/0021-media-work.md): at
 * most `concurrency` jobs run at once, at most `maxWaiting` more wait their turn in order, and a
 * job that finds the waiting list full is refused at once with 503 and a Retry-After, so a burst
 * of uploads can neither take every core from the pages nor pile up without end.
 */
export type WorkQueueOptions = {
  concurrency: number;
  maxWaiting: number;
  /** Seconds a refused client is told to wait before trying again. */
  retryAfter: number;
  busyMessage: string;
};

export class WorkQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: WorkQueueOptions) {}

  /** Jobs running and waiting right now (for tests and logs). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Runs `job` when a place is free; 503 (AppError) without running it when the waiting list is full. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrency) {
      if (this.waiting.length >= this.options.maxWaiting) {
        throw new AppError(503, this.options.busyMessage, { retryAfter: this.options.retryAfter });
      }
      // The place is handed over by the job that finishes (`running` is not decremented in between).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
