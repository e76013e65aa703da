/**
 * The bench's HTTP client and load loops: keep-alive requests to 127.0.0.1, bounded by a request
 * count and a duration, whichever ends first.
 */
import http from "node:http";

export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
export const MAX_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1500);
export const MAX_SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP = 25;
const WARMUP_MS = 1_000;

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

export type Result = {
  label: string;
  /** Answers by status ("200", "304"…), so a run whose 304s turned into 200s says so. */
  statuses: Record<string, number>;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
};

export const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

export function request(port: number, urlPath: string, headers: Record<string, string> = {}, method = "GET", body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: urlPath,
        method,
        agent,
        headers: { ...headers, ...(body ? { "Content-Length": Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${urlPath}`)));
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * What a load loop asks: GET `path` by default; a write gives `method` and a `body` drawn afresh for
 * each request, and `perWorker` headers (worker i sends perWorker[i % n] on top: one member each).
 */
export type Target = {
  port: number;
  path: string;
  headers?: Record<string, string>;
  method?: string;
  body?: () => string;
  perWorker?: Array<Record<string, string>>;
};

/** One request of `target`, as worker `worker` sends it. */
function send(target: Target, worker: number) {
  const { port, path: urlPath, headers = {}, method = "GET", body, perWorker } = target;
  const own = perWorker?.length ? perWorker[worker % perWorker.length] : undefined;
  return request(port, urlPath, own ? { ...headers, ...own } : headers, method, body?.());
}

/** Throughput and latency of one target, CONCURRENCY requests in flight. */
export async function load(label: string, target: Target, maxRequests = MAX_REQUESTS): Promise<Result> {
  // Warm up at full concurrency (JIT, connections, caches): a cold server's first second is not its speed.
  let warm = 0;
  const warmUntil = performance.now() + WARMUP_MS;
  const warmer = async (i: number) => {
    while (warm < WARMUP * CONCURRENCY && performance.now() < warmUntil) {
      warm += 1;
      await send(target, i);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => warmer(i)));
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + MAX_SECONDS * 1000;
  const worker = async (i: number) => {
    while (issued < maxRequests && performance.now() < deadline) {
      issued += 1;
      const t0 = performance.now();
      try {
        const res = await send(target, i);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 400) errors += 1;
      } catch {
        errors += 1;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => worker(i)));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label,
    statuses,
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

/**
 * Two targets, request by request in alternation (each worker sends one to A, then one to B,
 * half the workers the other way round), so both sets of latencies sample the same moments of
 * machine load. Returns both p50s.
 */
export async function loadPair(a: Target, b: Target, pairs: number, concurrency: number) {
  for (let i = 0; i < WARMUP; i++) {
    await request(a.port, a.path, a.headers);
    await request(b.port, b.path, b.headers);
  }
  const timesA: number[] = [];
  const timesB: number[] = [];
  let issued = 0;
  const deadline = performance.now() + 4 * MAX_SECONDS * 1000;
  const time = async (target: Target, into: number[]) => {
    const t0 = performance.now();
    await request(target.port, target.path, target.headers);
    into.push(performance.now() - t0);
  };
  const worker = async (flip: boolean) => {
    while (issued < pairs && performance.now() < deadline) {
      issued += 1;
      if (flip) {
        await time(b, timesB);
        await time(a, timesA);
      } else {
        await time(a, timesA);
        await time(b, timesB);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i % 2 === 1)));
  timesA.sort((x, y) => x - y);
  timesB.sort((x, y) => x - y);
  return { a: percentile(timesA, 50), b: percentile(timesB, 50), pairs: timesA.length };
}

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
