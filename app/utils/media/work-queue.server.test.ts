import { describe, expect, it, vi } from "vitest";
import { WorkQueue } from "./work-queue.server";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("WorkQueue: bounded image work (docs/decisions/0021-media-work.md)", () => {
  it("runs at most `concurrency` jobs at once, the rest in order, and refuses past the waiting list with 503", async () => {
    const queue = new WorkQueue({ concurrency: 1, maxWaiting: 2, retryAfter: 7, busyMessage: "Busy, try again" });
    const order: string[] = [];
    const gates = [deferred(), deferred(), deferred()];
    const job = (i: number) => () => {
      order.push(`start ${i}`);
      return gates[i]!.promise.then(() => {
        order.push(`end ${i}`);
        return i;
      });
    };
    const results = [queue.run(job(0)), queue.run(job(1)), queue.run(job(2))];
    expect(queue.load).toEqual({ running: 1, waiting: 2 });
    await expect(queue.run(job(0))).rejects.toMatchObject({ status: 503, message: "Busy, try again", retryAfter: 7 });

    gates[1]!.resolve();
    gates[2]!.resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(["start 0"]);
    gates[0]!.resolve();
    expect(await Promise.all(results)).toEqual([0, 1, 2]);
    expect(order).toEqual(["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });

  it("frees the place of a job that fails", async () => {
    const queue = new WorkQueue({ concurrency: 1, maxWaiting: 0, retryAfter: 1, busyMessage: "Busy" });
    await expect(queue.run(() => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
    expect(await queue.run(async () => "next")).toBe("next");
  });
});

/** A job that records its start and finishes when `gate` is opened. */
function gatedJob(order: string[], name: string) {
  const gate = deferred();
  const run = () => {
    order.push(name);
    return gate.promise.then(() => name);
  };
  return { run, open: gate.resolve };
}

/** Lets every pending promise callback run (no timers involved). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe("WorkQueue: each member's share, in turn (security-2 N7, N10)", () => {
  const fair = { concurrency: 1, maxWaiting: 8, retryAfter: 15, busyMessage: "Busy", perKey: 3, keyRetryAfter: 10 };

  it("a member with many jobs does not keep another member's job from being taken, and it runs before the first member's later ones", async () => {
    const queue = new WorkQueue(fair);
    const order: string[] = [];
    const a = [1, 2, 3].map((i) => gatedJob(order, `a${i}`));
    const b1 = gatedJob(order, "b1");
    const results = a.map((job) => queue.run(job.run, { key: "member:1" }));
    const b = queue.run(b1.run, { key: "member:2" });
    expect(queue.load).toEqual({ running: 1, waiting: 3 });

    for (const job of [...a, b1]) job.open();
    expect(await Promise.all([...results, b])).toEqual(["a1", "a2", "a3", "b1"]);
    expect(order).toEqual(["a1", "b1", "a2", "a3"]);
  });

  it("a member past their share is told to try again in a moment (429, Retry-After); another member is still taken", async () => {
    const queue = new WorkQueue({ ...fair, keyBusyMessage: "Your other images are still being processed." });
    const order: string[] = [];
    const a = [1, 2, 3].map((i) => gatedJob(order, `a${i}`));
    const taken = a.map((job) => queue.run(job.run, { key: "member:1" }));
    const extra = gatedJob(order, "a4");
    await expect(queue.run(extra.run, { key: "member:1" })).rejects.toMatchObject({
      status: 429,
      retryAfter: 10,
      message: "Your other images are still being processed.",
    });
    const b1 = gatedJob(order, "b1");
    const b = queue.run(b1.run, { key: "member:2" });
    for (const job of [...a, b1]) job.open();
    expect(await Promise.all([...taken, b])).toEqual(["a1", "a2", "a3", "b1"]);
    expect(order).not.toContain("a4");
  });

  it("a waiting job whose request is aborted is dropped: it never runs and gives its place back", async () => {
    const queue = new WorkQueue(fair);
    const order: string[] = [];
    const first = gatedJob(order, "first");
    const running = queue.run(first.run, { key: "member:2" });
    const controller = new AbortController();
    const dropped = gatedJob(order, "dropped");
    const waiting = queue.run(dropped.run, { key: "member:1", signal: controller.signal });
    const outcome = waiting.then(
      () => "ran",
      (error: Error) => error.name,
    );
    expect(queue.load).toEqual({ running: 1, waiting: 1 });

    controller.abort();
    await settle();
    expect(queue.load).toEqual({ running: 1, waiting: 0 });
    first.open();
    dropped.open();
    await running;
    expect(await outcome).toBe("AbandonedError");
    expect(order).toEqual(["first"]);
    // Already aborted: refused before it takes a place.
    await expect(queue.run(async () => "late", { key: "member:1", signal: controller.signal })).rejects.toMatchObject({
      name: "AbandonedError",
    });
  });

  it("a job waits at most maxWaitMs: then 503 with Retry-After, before the server's idle timeout, and it never runs", async () => {
    vi.useFakeTimers();
    try {
      const queue = new WorkQueue({ ...fair, maxWaitMs: 12_000 });
      const order: string[] = [];
      const first = gatedJob(order, "first");
      const running = queue.run(first.run, { key: "member:2" });
      const late = gatedJob(order, "late");
      const outcome = queue.run(late.run, { key: "member:1" }).then(
        () => null,
        (error: unknown) => error,
      );
      await vi.advanceTimersByTimeAsync(11_999);
      expect(queue.load).toEqual({ running: 1, waiting: 1 });
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toMatchObject({ status: 503, retryAfter: 15, message: "Busy" });
      expect(queue.load).toEqual({ running: 1, waiting: 0 });
      first.open();
      late.open();
      await running;
      expect(order).toEqual(["first"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("each member has a budget of seconds at work: past it only that member gets 429 until some is given back", async () => {
    let now = 0;
    const queue = new WorkQueue({ ...fair, budget: { seconds: 20, refillPerSecond: 0.5 }, now: () => now });
    const heavy = async () => {
      now += 25_000; // the job held its place 25 s
      return "heavy";
    };
    expect(await queue.run(heavy, { key: "member:1" })).toBe("heavy");
    // 25 s used against 20: 5 s over, given back at 0.5 s a second: 10 s (+1).
    await expect(queue.run(async () => "again", { key: "member:1" })).rejects.toMatchObject({ status: 429, retryAfter: 11 });
    expect(await queue.run(async () => "other", { key: "member:2" })).toBe("other");
    now += 11_000;
    expect(await queue.run(async () => "later", { key: "member:1" })).toBe("later");
  });
});
