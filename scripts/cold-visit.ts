/**
 * A member's cold visit to each page, as a phone pays it (issue 40 item 4): a fresh browser context
 * (nothing cached, no service worker), every script fetched until the network is idle plus 1.5 s
 * (lazy parts included), counted as sent: bytes on the wire with their headers (Chromium's
 * encodedDataLength). `tsx scripts/cold-visit.ts http://127.0.0.1:PORT [path ...]`, the server built
 * and started with demo content (SEED_DEMO=1).
 */
import { chromium } from "@playwright/test";

const base = process.argv[2] ?? "http://127.0.0.1:3000";
const paths = process.argv.slice(3);

async function main() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  const signIn = await browser.newContext({ serviceWorkers: "block" });
  const page = await signIn.newPage();
  await page.goto(`${base}/auth?tab=signin`);
  await page.getByLabel("Username").first().fill("ridgerunner");
  await page.getByLabel("Password").first().fill("whitetail");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
  const cookies = await signIn.cookies();
  await signIn.close();
  const pages = paths.length > 0 ? paths : ["/", "/create", "/settings", "/clubs", "/notifications", "/search"];
  for (const path of pages) {
    const context = await browser.newContext({ serviceWorkers: "block" });
    await context.addCookies(cookies);
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const types = new Map<string, { type: string; url: string }>();
    const scripts: { url: string; bytes: number }[] = [];
    cdp.on("Network.responseReceived", (e) => types.set(e.requestId, { type: e.type, url: e.response.url }));
    cdp.on("Network.loadingFinished", (e) => {
      const r = types.get(e.requestId);
      if (r?.type === "Script") scripts.push({ url: r.url, bytes: e.encodedDataLength });
    });
    await tab.goto(base + path, { waitUntil: "networkidle" });
    await tab.waitForTimeout(1500);
    const total = scripts.reduce((sum, s) => sum + s.bytes, 0);
    console.log(`${path.padEnd(22)} ${String(scripts.length).padStart(3)} scripts ${(total / 1024).toFixed(1).padStart(7)} KB`);
    if (process.env.COLD_VISIT_FILES) {
      for (const s of scripts.sort((a, b) => b.bytes - a.bytes))
        console.log(`    ${(s.bytes / 1024).toFixed(1).padStart(6)}  ${s.url.replace(base, "")}`);
    }
    await context.close();
  }
  await browser.close();
}
await main();
