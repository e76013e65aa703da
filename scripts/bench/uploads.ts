/**
 * Resumable uploads on a bad uplink (issue 28), measured the way a member meets them: Debian's
 * Chromium opens /create through the cutting proxy (tests/fixtures/cutting-proxy.ts) and the page's
 * own upload widget sends a file. Bytes sent are what crossed the emulated link towards the server
 * (HTTP framing included), so a chunk sent twice counts twice.
 *
 * Each row runs on the local store and on S3 (s3rver). `tsx scripts/bench/uploads.ts` runs these rows alone against a small fresh database (after
 * `npm run build`, or with BENCH_SERVER_BUILD); `npm run bench` runs them after its other rows.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { startCuttingProxy, type Link } from "../../tests/fixtures/cutting-proxy";
import { startS3rver } from "../../tests/fixtures/media";
import { BENCH_DIR, ROOT, SERVER_BUILD, benchPort, seed, signIn, startApp } from "./servers";

const MB = 1024 * 1024;

/**
 * The slow link is emulated faster, by BENCH_UPLINK_SCALE (default 20): 100 kbit/s × 20, dropping
 * every 60 s / 20, carries the same bytes between drops as the real link in 1/20 of the time. What
 * does not scale (the widget's retry delay, round trips, the server's work) is then counted 20
 * times over in the real-time estimate, so the estimate is pessimistic. BENCH_UPLINK_SCALE=1 runs
 * the real link (about 30 minutes for 20 MB).
 */
export const UPLINK_SCALE = Number(process.env.BENCH_UPLINK_SCALE ?? 20);
const UPLINK_BYTES_PER_S = 100_000 / 8;
const DROP_EVERY_MS = 60_000;

/** An MP4 container's first bytes and then noise: stored as a video without image work. */
function video(size: number): Buffer {
  const head = Buffer.from("000000206674797069736f6d0000020069736f6d69736f326176633161766331", "hex");
  return Buffer.concat([head, crypto.randomBytes(size - head.length)]);
}

export type UploadRun = {
  /** Bytes that went up through the link while the widget sent the file (framing included). */
  sent: number;
  size: number;
  ms: number;
  cuts: number;
  /** Times the member tapped Resume (the widget's own retries had run out). */
  resumes: number;
  /** Uploads the page started (POST): 1 unless it lost the upload's address and began again. */
  creates: number;
  finished: boolean;
};

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"],
  });
}

/**
 * Opens /create through a cutting proxy as the member of `cookie` (a cookie holds for every port of
 * 127.0.0.1), and sends `size` bytes with the page's widget over `link`; taps Resume whenever the
 * widget offers it, as a member would. Gives up after `timeoutMs`.
 */
export async function widgetUpload(
  browser: Browser,
  appPort: number,
  cookie: string,
  size: number,
  link: Link,
  timeoutMs: number,
): Promise<UploadRun> {
  const proxy = await startCuttingProxy(appPort);
  const context = await browser.newContext({ serviceWorkers: "block" });
  // One name per run: two benches at once must not read (or delete) each other's file.
  const file = path.join(BENCH_DIR, `upload-${process.pid}-${crypto.randomBytes(4).toString("hex")}.mp4`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, video(size));
  try {
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const [name, ...value] = pair.split("=");
        return { name: name!, value: value.join("="), domain: "127.0.0.1", path: "/" };
      }),
    );
    const page = await context.newPage();
    let creates = 0;
    page.on("request", (r) => {
      if (r.url().includes("/api/uploads") && r.method() === "POST") creates += 1;
    });
    // The page loads over a good link; from the file's choosing on, the link is the emulated one.
    await page.goto(`http://127.0.0.1:${proxy.port}/create`);
    await page.getByTestId("media-upload").waitFor();
    const name = path.basename(file);
    const started = Date.now();
    proxy.setLink(link);
    await page.getByTestId("media-file-input").setInputFiles(file);
    const done = page.getByTestId("uploaded-files").getByText(name);
    const resume = page.getByRole("button", { name: `Resume upload of ${name}` });
    let resumes = 0;
    let finished = false;
    while (Date.now() - started < timeoutMs) {
      if (await done.isVisible()) {
        finished = true;
        break;
      }
      if (await resume.isVisible()) {
        resumes += 1;
        await resume.click();
      }
      await page.waitForTimeout(100);
    }
    return { sent: proxy.sent(), size, ms: Date.now() - started, cuts: proxy.cuts(), resumes, creates, finished };
  } finally {
    await context.close();
    await proxy.close();
    fs.rmSync(file, { force: true });
  }
}

export type UploadBudget = { name: string; figure: string; pass: boolean };

const mb = (bytes: number) => `${(bytes / MB).toFixed(2)} MB`;

/** The two rows of issue 28 against one app (`store` names its store), printed, and their budgets. */
async function rowsOn(browser: Browser, store: string, appPort: number, cookie: string): Promise<UploadBudget[]> {
  const half = await widgetUpload(browser, appPort, cookie, 8 * MB, { cutAfter: 4 * MB }, 120_000);
  console.log(
    `  ${store}: 8 MB cut once at half: ${half.finished ? "finished" : "NOT finished"}, ${mb(half.sent)} sent (${(half.sent / half.size).toFixed(3)}×), ${half.creates} upload(s) started, ${half.resumes} Resume taps, ${(half.ms / 1000).toFixed(1)} s`,
  );
  const rate = UPLINK_BYTES_PER_S * UPLINK_SCALE;
  const dropMs = DROP_EVERY_MS / UPLINK_SCALE;
  // Bounded: four times what the bytes alone need on the emulated link, plus a minute. A drop every
  // 3 s leaves the widget's unscaled 1 s retry delay a third of each interval, and a busy machine
  // slows the server's share (measured alone: 131 s local, 142 s S3; 177 s local at load 10).
  const bound = ((20 * MB) / rate) * 4000 + 60_000;
  const slow = await widgetUpload(browser, appPort, cookie, 20 * MB, { bytesPerSecond: rate, dropEveryMs: dropMs }, bound);
  // On the real link: the run's time × the scale (an upper bound: the widget's 1 s retry delay
  // after each drop and every round trip are scaled too), and what the bytes alone take.
  const real = (slow.ms * UPLINK_SCALE) / 60_000;
  const wire = slow.sent / UPLINK_BYTES_PER_S / 60;
  console.log(
    `  ${store}: 20 MB over 100 kbit/s dropping every 60 s (run ${UPLINK_SCALE}× faster: ${((rate * 8) / 1000).toFixed(0)} kbit/s, a drop every ${(dropMs / 1000).toFixed(1)} s): ${slow.finished ? "finished" : "NOT finished"} in ${(slow.ms / 1000).toFixed(1)} s, ${mb(slow.sent)} sent (${(slow.sent / slow.size).toFixed(3)}×), ${slow.cuts} drops, ${slow.creates} upload(s) started, ${slow.resumes} Resume taps; on the real link ≤ ${real.toFixed(1)} min (the bytes alone ${wire.toFixed(1)} min)`,
  );
  return [
    {
      name: `8 MB upload cut at half (${store}): sent ≤ 1.1× its size`,
      figure: `${mb(half.sent)}, ${(half.sent / half.size).toFixed(3)}×${half.finished ? "" : ", not finished"}`,
      pass: half.finished && half.sent <= 1.1 * half.size,
    },
    {
      name: `20 MB, 100 kbit/s dropping every 60 s (${store}): finishes`,
      figure: `${slow.finished ? "finished" : "not finished"}, ≤ ${real.toFixed(1)} min real, ${mb(slow.sent)} sent, ${slow.cuts} drops`,
      pass: slow.finished,
    },
  ];
}

/**
 * The rows on the local store (the app at `appPort`), then on S3: s3rver (with the ListParts that
 * tests/fixtures/media.ts adds) and a second app on the same database `dbFile`, at `s3AppPort`.
 */
export async function uploadRows(appPort: number, cookie: string, dbFile: string, s3AppPort: number): Promise<UploadBudget[]> {
  const browser = await launchChromium();
  try {
    console.log(`\n== Resumable uploads with the page's widget in Chromium, through a cutting proxy (issue 28)`);
    const budgets = await rowsOn(browser, "local store", appPort, cookie);
    const s3 = await startS3rver();
    try {
      const app = await startApp(dbFile, s3AppPort, {
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: "us-east-1",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      });
      try {
        budgets.push(...(await rowsOn(browser, "S3, s3rver", app.port, cookie)));
      } finally {
        await app.stop();
      }
    } finally {
      await s3.close();
    }
    return budgets;
  } finally {
    await browser.close();
  }
}

/** Alone: a small fresh database, the app, these rows. */
async function main() {
  if (!fs.existsSync(SERVER_BUILD)) throw new Error(`No server build at ${SERVER_BUILD}. Run \`npm run build\` first.`);
  const file = path.join(BENCH_DIR, "uploads.db");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  seed(file, 5, 10);
  const app = await startApp(file, await benchPort(0));
  try {
    const budgets = await uploadRows(app.port, await signIn(app.port, file), file, await benchPort(1));
    for (const b of budgets) console.log(`  ${b.pass ? "PASS" : "FAIL"}  ${b.name.padEnd(66)} ${b.figure}`);
    if (process.argv.includes("--check") && budgets.some((b) => !b.pass)) process.exitCode = 1;
  } finally {
    await app.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(ROOT, "scripts/bench/uploads.ts")) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
