import { describe, expect, it } from "vitest";
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
