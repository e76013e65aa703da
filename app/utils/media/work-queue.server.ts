import { AppError } from "../errors";

/**
 * A bounded, fair queue for CPU-heavy work (image processing, docs/decisions/0021-media-work.md and
 * docs/decisions/0052-fair-image-queue.md):
 *
 * - at most `concurrency` jobs run at once, at most `maxWaiting` more wait, and a job that finds the
 *   waiting list full is refused at once with 503 and a Retry-After;
 * - each job belongs to a key (the member it is for). One key holds at most `perKey` places
 *   (running and waiting together): past that, only that key is told 429 "try again in a moment",
 *   so one member cannot fill the list for everyone else;
 * - a free place goes to the keys in turn (round robin: the waiting key served longest ago), not in
 *   order of arrival, so a member with several jobs waiting does not go before another member's
 *   single one;
 * - each key has a budget of seconds in a running place (`budget`), given back at a steady rate: a
 *   key over it is refused with 429 until it has some back;
 * - a job may wait at most `maxWaitMs` (below the server's idle timeout, so the client gets an
 *   answer): past it, 503 and Retry-After;
 * - a job whose `signal` aborts (the client went away) before it starts is dropped, never run.
 */
export type WorkQueueOptions = {
  concurrency: number;
  maxWaiting: number;
  /** Seconds a refused client is told to wait before trying again. */
  retryAfter: number;
  busyMessage: string;
  /** Places (running and waiting) one key may hold at once. Unlimited if unset. */
  perKey?: number;
  /** What a key over its share (places or budget) is told, with 429. */
  keyBusyMessage?: string;
  /** Seconds a key over its share of places is told to wait. */
  keyRetryAfter?: number;
  /** The longest a job may wait for a place, in milliseconds. Unlimited if unset. */
  maxWaitMs?: number;
  /** Seconds in a running place one key may use in a burst, and how many seconds it gets back per second. */
  budget?: { seconds: number; refillPerSecond: number };
  /** The clock (milliseconds); tests pass their own. */
  now?: () => number;
};

export type RunOptions = {
  /** Whose job this is (a member id). Jobs without a key share one place in the turns and have no budget. */
  key?: string;
  /** The request's signal: once aborted, the job is dropped if it has not started. */
  signal?: AbortSignal;
  /** This job's longest wait, instead of the queue's `maxWaitMs` (Infinity: no limit). */
  maxWaitMs?: number;
};

/** The job was dropped because its request was aborted (the client is gone): nothing was run. */
export class AbandonedError extends AppError {
  constructor() {
    super(503, "The request was closed before its work could start.");
    this.name = "AbandonedError";
  }
}

type Waiter = {
  key: string;
  start: () => void;
  fail: (error: Error) => void;
};

/**
 * `places`: the key's jobs running or waiting; `used`: budget seconds spent and not yet given back,
 * as of `at`; `served`: when one of its jobs last got a place (a count, 0: not yet).
 */
type KeyState = { places: number; used: number; at: number; served: number };

export class WorkQueue {
  private running = 0;
  private waitingCount = 0;
  /** Waiting jobs of each key, oldest first. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Keys with a job waiting, in the order they started waiting. */
  private readonly turns: string[] = [];
  /** Counts the places given, to tell which key was served longest ago. */
  private served = 0;
  private readonly keys = new Map<string, KeyState>();
  private readonly now: () => number;

  constructor(private readonly options: WorkQueueOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Jobs running and waiting right now (for tests and logs). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  /**
   * Runs `job` when a place is free and it is this key's turn. Refusals are AppErrors: 429 for a key
   * over its share or budget, 503 when the waiting list is full or the wait too long, and
   * AbandonedError (503) when `signal` aborts first. A refused job is never run.
   */
  async run<T>(job: () => Promise<T>, { key = "", signal, maxWaitMs = this.options.maxWaitMs }: RunOptions = {}): Promise<T> {
    if (signal?.aborted) throw new AbandonedError();
    const state = this.admit(key);
    if (this.running >= this.options.concurrency) {
      try {
        if (this.waitingCount >= this.options.maxWaiting) throw this.busy();
        await this.wait(key, signal, maxWaitMs);
      } catch (error) {
        state.places -= 1;
        this.release(key, state);
        throw error;
      }
    } else {
      this.running += 1;
      state.served = ++this.served;
    }
    const started = this.now();
    try {
      return await job();
    } finally {
      this.spend(state, (this.now() - started) / 1000);
      state.places -= 1;
      this.release(key, state);
      this.handOver();
    }
  }

  private busy(): AppError {
    return new AppError(503, this.options.busyMessage, { retryAfter: this.options.retryAfter });
  }

  private keyBusy(retryAfter: number): AppError {
    const message = this.options.keyBusyMessage ?? "You have other work in progress. Try again in a moment.";
    return new AppError(429, message, { retryAfter: Math.max(1, Math.ceil(retryAfter)) });
  }

  /** The key's state, refreshed; throws 429 when the key has no place or budget left. */
  private admit(key: string): KeyState {
    const state = this.keys.get(key) ?? { places: 0, used: 0, at: this.now(), served: 0 };
    this.refill(state);
    const { perKey, budget } = this.options;
    if (perKey !== undefined && state.places >= perKey) {
      throw this.keyBusy(this.options.keyRetryAfter ?? this.options.retryAfter);
    }
    if (budget && key !== "" && state.used >= budget.seconds) {
      throw this.keyBusy((state.used - budget.seconds) / budget.refillPerSecond + 1);
    }
    state.places += 1;
    this.keys.set(key, state);
    return state;
  }

  private refill(state: KeyState): void {
    const { budget } = this.options;
    const now = this.now();
    if (budget) state.used = Math.max(0, state.used - ((now - state.at) / 1000) * budget.refillPerSecond);
    state.at = now;
  }

  private spend(state: KeyState, seconds: number): void {
    this.refill(state);
    state.used += seconds;
  }

  /** Forgets a key with nothing running, waiting or owed. */
  private release(key: string, state: KeyState): void {
    if (state.places === 0 && state.used === 0) this.keys.delete(key);
    // A key that still owes budget is kept; sweep those that have paid it back.
    if (this.keys.size > 1000) {
      for (const [k, s] of this.keys) {
        this.refill(s);
        if (s.places === 0 && s.used === 0) this.keys.delete(k);
      }
    }
  }

  private wait(key: string, signal: AbortSignal | undefined, maxWaitMs: number | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = () => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const waiter: Waiter = {
        key,
        start: () => {
          settle();
          resolve();
        },
        fail: (error) => {
          settle();
          this.remove(waiter);
          reject(error);
        },
      };
      const onAbort = () => waiter.fail(new AbandonedError());
      signal?.addEventListener("abort", onAbort, { once: true });
      if (maxWaitMs !== undefined && Number.isFinite(maxWaitMs)) {
        timer = setTimeout(() => waiter.fail(this.busy()), maxWaitMs);
        timer.unref?.();
      }
      const list = this.waiting.get(key);
      if (list) list.push(waiter);
      else {
        this.waiting.set(key, [waiter]);
        this.turns.push(key);
      }
      this.waitingCount += 1;
    });
  }

  private remove(waiter: Waiter): void {
    const list = this.waiting.get(waiter.key);
    const i = list?.indexOf(waiter) ?? -1;
    if (!list || i < 0) return;
    list.splice(i, 1);
    this.waitingCount -= 1;
    if (list.length === 0) {
      this.waiting.delete(waiter.key);
      this.turns.splice(this.turns.indexOf(waiter.key), 1);
    }
  }

  /**
   * The place of a finished job goes to the waiting key that was served longest ago (round robin:
   * the member whose job just ran goes after the others; `running` stays the same), or is freed.
   */
  private handOver(): void {
    if (this.turns.length === 0) {
      this.running -= 1;
      return;
    }
    let turn = 0;
    for (let i = 1; i < this.turns.length; i++) {
      if (this.servedOf(this.turns[i]!) < this.servedOf(this.turns[turn]!)) turn = i;
    }
    const key = this.turns.splice(turn, 1)[0]!;
    const list = this.waiting.get(key)!;
    const next = list.shift()!;
    this.waitingCount -= 1;
    if (list.length) this.turns.push(key);
    else this.waiting.delete(key);
    this.keys.get(key)!.served = ++this.served;
    next.start();
  }

  private servedOf(key: string): number {
    return this.keys.get(key)?.served ?? 0;
  }
}
