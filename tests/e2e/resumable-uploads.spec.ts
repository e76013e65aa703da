import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sendResumable } from "../../app/components/post/resumable-send";
import { expect, test } from "./fixtures";

/**
 * Resumable uploads (tus, docs/decisions/0035-resumable-uploads.md), issue 12: an upload cut at
 * half finishes without sending the first half again; with JavaScript the widget offers Resume
 * when the connection drops, and a reload mid-upload continues rather than restarting.
 */

test.use({ serviceWorkers: "block" });

const MB = 1024 * 1024;
const PROXY_PORT = Number(process.env.E2E_PORT ?? 3100) + 1;

/** An MP4 container's first bytes and then noise: stored as a video without image work. */
function video(size: number): Buffer {
  const head = Buffer.from("000000206674797069736f6d0000020069736f6d69736f326176633161766331", "hex");
  return Buffer.concat([head, crypto.randomBytes(size - head.length)]);
}

/**
 * A TCP proxy on 127.0.0.1 counting every byte the client sends through it, that cuts the
 * connection (both sides) once `cutAfter` bytes have passed towards the server, once.
 */
async function startCuttingProxy(port: number, target: number, cutAfter: number) {
  let forwarded = 0;
  let cut = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target, "127.0.0.1");
    client.on("data", (chunk: Buffer) => {
      forwarded += chunk.length;
      upstream.write(chunk);
      if (!cut && forwarded >= cutAfter) {
        cut = true;
        client.destroy();
        upstream.destroy();
      }
    });
    upstream.on("data", (chunk) => client.write(chunk));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    forwarded: () => forwarded,
    wasCut: () => cut,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("an 8 MB upload cut at half resumes and finishes with under 1.25× its size sent", async ({ page, js, signUp, baseURL }) => {
  test.skip(!js, "one run is enough: the client here is tus-js-client in Node, through the proxy");
  await signUp();
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const target = Number(new URL(baseURL!).port);
  const file = video(8 * MB);
  const proxy = await startCuttingProxy(PROXY_PORT, target, 4 * MB);
  try {
    const progress: number[] = [];
    const interrupted: number[] = [];
    const stored = await new Promise<{ url: string; type: string; name: string }>((resolve, reject) => {
      const upload = sendResumable(
        file,
        "stand-cam.mp4",
        {
          onProgress: (p) => progress.push(p),
          onDone: resolve,
          onInterrupted: (p) => {
            interrupted.push(p);
            upload.resume();
          },
          onRefused: (reason) => reject(new Error(reason)),
        },
        { endpoint: `http://127.0.0.1:${PROXY_PORT}/api/uploads`, headers: { Cookie: cookie }, retryDelays: [200, 500, 1000] },
      );
    });
    expect(proxy.wasCut()).toBe(true);
    expect(stored).toMatchObject({ type: "video", name: "stand-cam.mp4" });
    const sent = proxy.forwarded();
    test.info().annotations.push({ type: "bytes sent", description: `${sent} for ${file.length} (${(sent / file.length).toFixed(3)}×)` });
    expect(sent).toBeGreaterThan(8 * MB);
    expect(sent).toBeLessThan(1.25 * 8 * MB);
    // The stored file is the whole file.
    const served = await page.request.get(stored.url);
    expect(served.status()).toBe(200);
    expect(Buffer.compare(await served.body(), file)).toBe(0);
  } finally {
    await proxy.close();
  }
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

  await page.getByTestId("media-file-input").setInputFiles(file);
  const row = page.getByTestId("upload-progress").getByRole("listitem").filter({ hasText: "long-sit.mp4" });
  await expect(row).toContainText("Continuing where the last upload stopped");
  await expect(page.getByTestId("uploaded-files")).toContainText("long-sit.mp4", { timeout: 30_000 });
  // No second upload was started, and the first PATCH after the reload began past the middle.
  expect(creates).toHaveLength(1);
  expect(offsets.at(-1)!).toBeGreaterThan(0.25 * 3 * MB);
  await expect(page.getByTestId("unfinished-uploads")).toHaveCount(0);
});
