import type { ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { CHUNK_BYTES } from "../../app/offline/resumable-send";
import { startCuttingProxy } from "../fixtures/cutting-proxy";
import { startS3rver } from "../fixtures/media";
import { expect, startServer, test } from "./fixtures";

/**
 * Resumable uploads (tus, docs/decisions/0035-resumable-uploads.md, 0056-upload-chunks-and-resume.md):
 * the page's own widget, in Chromium, through a proxy that cuts the connection once at half of an
 * 8 MB file, finishes having sent each byte about once, on the local store and on S3 (s3rver); with
 * JavaScript the widget offers Resume when the connection keeps failing, and a reload mid-upload
 * continues rather than restarting.
 */

test.use({ serviceWorkers: "block" });

// A known flake, open (docs/testing.md, "cut at half"): now and then the server resumes a little more
// than 64 KB short of the cut, past this file's bound, on either engine and either store; it was not
// found in the 2026-11-27 investigation. Three retries in CI instead of one while it is open: each
// attempt still checks every bound, and three failures in a row still fail the run.
test.describe.configure({ retries: process.env.CI ? 3 : 0 });

const MB = 1024 * 1024;

/** An MP4 container's first bytes and then noise: stored as a video without image work. */
function video(size: number): Buffer {
  const head = Buffer.from("000000206674797069736f6d0000020069736f6d69736f326176633161766331", "hex");
  return Buffer.concat([head, crypto.randomBytes(size - head.length)]);
}

/**
 * Opens /create through a cutting proxy in front of `appPort` (the session cookie holds for every
 * port of localhost), chooses an 8 MB video in the widget, cuts the link once at half, and checks
 * what went up: every byte the server received before the cut is kept (the next PATCH starts
 * there), at most one chunk is sent twice, and the stored file is the file.
 */
async function cutAtHalf(page: Page, appPort: number) {
  const file = video(8 * MB);
  const proxy = await startCuttingProxy(appPort);
  try {
    // The widget's requests in order: after a cut, tus asks the server where it stands (HEAD).
    const requests: string[] = [];
    page.on("request", (request) => {
      if (!request.url().includes("/api/uploads/")) return;
      requests.push(request.method() === "PATCH" ? `PATCH ${request.headers()["upload-offset"]}` : request.method());
    });
    const origin = `http://localhost:${proxy.port}`;
    await page.goto(`${origin}/create`);
    await expect(page.getByTestId("media-upload")).toBeVisible();
    proxy.setLink({ cutAfter: 4 * MB });
    await page.getByTestId("media-file-input").setInputFiles({ name: "stand-cam.mp4", mimeType: "video/mp4", buffer: file });
    await expect(page.getByTestId("uploaded-files")).toContainText("stand-cam.mp4", { timeout: 30_000 });

    expect(proxy.cuts()).toBe(1);
    const sent = proxy.sent();
    test.info().annotations.push({ type: "bytes sent", description: `${sent} for ${file.length} (${(sent / file.length).toFixed(3)}×)` });
    // The first PATCH after the cut starts where the link died, less the requests' own headers.
    expect(requests).toContain("HEAD");
    const resumed = requests.slice(requests.indexOf("HEAD")).find((r) => r.startsWith("PATCH"));
    expect(Number(resumed?.split(" ")[1]), requests.join(", ")).toBeGreaterThan(4 * MB - 64 * 1024);
    // What went twice is at most one chunk (Chromium resends a request cut on a reused connection).
    expect(sent).toBeLessThan(file.length + CHUNK_BYTES + 64 * 1024);
    const url = await page.getByTestId("uploaded-files").locator('input[name="uploadedFiles"]').inputValue();
    const served = await page.request.get(`${origin}${url}`);
    expect(served.status()).toBe(200);
    expect(Buffer.compare(await served.body(), file)).toBe(0);
  } finally {
    await proxy.close();
  }
}

test("with JavaScript: an 8 MB upload cut at half resumes where the link died and sends each byte about once (local store)", async ({
  page,
  js,
  signUp,
  baseURL,
}) => {
  test.skip(!js, "the resumable widget is a JavaScript enhancement");
  await signUp();
  await cutAtHalf(page, Number(new URL(baseURL!).port));
});

test.describe("on S3", () => {
  // One app on S3 (s3rver, with the ListParts tus needs answered by tests/fixtures/media.ts) for
  // this describe, beside the suite's own server on the same database.
  test.describe.configure({ mode: "serial" });
  test.skip(({ js }) => !js, "the resumable widget is a JavaScript enhancement");
  const port = Number(process.env.E2E_PORT ?? 3100) + 7;
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  let app: ChildProcess | undefined;

  test.beforeAll(async () => {
    s3 = await startS3rver();
    const configPort = Number(process.env.E2E_PORT ?? 3100);
    app = await startServer(port, process.env.E2E_DATA_DIR ?? `tmp/e2e-${configPort}`, {
      RATE_LIMITS: "off",
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    });
  });

  test.afterAll(async () => {
    app?.kill();
    await s3?.close();
  });

  test("with JavaScript: an 8 MB upload cut at half keeps the bytes of the cut chunk (the store's incomplete part) and sends each about once", async ({
    page,
    signUp,
  }) => {
    await signUp();
    await cutAtHalf(page, port);
  });
});

/** Writes `buffer` to a file on disk: a chosen file's name, size and date stay the same when chosen again. */
function onDisk(name: string, buffer: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-resumable-"));
  const file = path.join(dir, name);
  fs.writeFileSync(file, buffer);
  return file;
}

test("with JavaScript: an upload whose connection keeps failing shows Resume, and Resume finishes it", async ({ page, js, signUp }) => {
  test.skip(!js, "the resumable widget is a JavaScript enhancement");
  test.setTimeout(60_000);
  await signUp();
  await page.goto("/create");
  await expect(page.getByTestId("media-upload")).toBeVisible();
  let patches = 0;
  await page.route("**/api/uploads/**", (route) => {
    if (route.request().method() !== "PATCH") return route.continue();
    patches += 1;
    return route.abort("connectionreset");
  });
  await page.getByTestId("media-file-input").setInputFiles({ name: "doe.mp4", mimeType: "video/mp4", buffer: video(300_000) });

  const row = page.getByTestId("upload-progress").getByRole("listitem").filter({ hasText: "doe.mp4" });
  const resume = row.getByRole("button", { name: "Resume upload of doe.mp4" });
  await expect(resume).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText("Connection lost");
  await expect(page.getByTestId("toast")).toContainText("Upload paused");
  expect(patches).toBeGreaterThan(1); // retried on its own first
  // The row stays: it is not cleared like a finished one.
  await page.waitForTimeout(1500);
  await expect(resume).toBeVisible();

  await page.unroute("**/api/uploads/**");
  await resume.click();
  await expect(page.getByTestId("uploaded-files")).toContainText("doe.mp4", { timeout: 15_000 });
  await expect(page.getByTestId("upload-progress")).toHaveCount(0, { timeout: 4000 });
});

test("with JavaScript: a reload mid-upload continues from where it stopped when the file is chosen again", async ({ page, js, signUp }) => {
  test.skip(!js, "the resumable widget is a JavaScript enhancement");
  test.setTimeout(90_000);
  await signUp();
  await page.goto("/create");
  await expect(page.getByTestId("media-upload")).toBeVisible();
  const file = onDisk("long-sit.mp4", video(3 * MB));

  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: 2_000_000,
    uploadThroughput: 256 * 1024,
  });
  const creates: string[] = [];
  const offsets: number[] = [];
  page.on("request", (request) => {
    if (!request.url().includes("/api/uploads")) return;
    if (request.method() === "POST") creates.push(request.url());
    if (request.method() === "PATCH") offsets.push(Number(request.headers()["upload-offset"]));
  });

  await page.getByTestId("media-file-input").setInputFiles(file);
  const bar = page.getByRole("progressbar", { name: "Uploading long-sit.mp4" });
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 }).toBeGreaterThanOrEqual(30);
  expect(creates).toHaveLength(1);

  await page.reload();
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(page.getByTestId("unfinished-uploads")).toContainText("long-sit.mp4");

  // The row says "Continuing where…" only while it uploads: unthrottled, the other 2 MB went in within
  // a moment and the row turned "100%" (then went) before a loaded test looked. Its bytes wait for the
  // look: the resumed upload's PATCHes are held until the row has said it.
  let noted!: () => void;
  const seen = new Promise<void>((resolve) => (noted = resolve));
  await page.route("**/api/uploads/**", async (route) => {
    if (route.request().method() === "PATCH") await seen;
    await route.continue();
  });
  await page.getByTestId("media-file-input").setInputFiles(file);
  const row = page.getByTestId("upload-progress").getByRole("listitem").filter({ hasText: "long-sit.mp4" });
  await expect(row).toContainText("Continuing where the last upload stopped");
  noted();
  await expect(page.getByTestId("uploaded-files")).toContainText("long-sit.mp4", { timeout: 30_000 });
  // No second upload was started, and the first PATCH after the reload began past the middle.
  expect(creates).toHaveLength(1);
  expect(offsets.at(-1)!).toBeGreaterThan(0.25 * 3 * MB);
  await expect(page.getByTestId("unfinished-uploads")).toHaveCount(0);
});
