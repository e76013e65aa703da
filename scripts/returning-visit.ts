/**
 * A returning member on a shaped slow link (issue 42's slow-link item, ADR 0088): a phone that opened
 * `/` once (its service worker installed) and then stayed idle until the worker had fetched nothing
 * for 5 s, opens another page. Measured for that page: the script requests that reached the network
 * (asked by the page past the worker, or by the worker itself), the bytes on the link both ways, and
 * when the page was readable (first contentful paint) and enhanced (the project's `hydrated()`
 * test: React on `<main>`, no lazy part pending). Also what the first visit's background fetch cost.
 *
 * Every connection of the browser goes through one shaped link, as in audit ux-3: 50 KB/s down,
 * 20 KB/s up, +150 ms each way. A fresh browser context for each page.
 *
 *   tsx scripts/returning-visit.ts http://127.0.0.1:PORT [path ...]
 *
 * against a server built and started with demo content (SEED_DEMO=1), member ridgerunner.
 */
import net from "node:net";
import { chromium, type BrowserContext, type Page } from "@playwright/test";

const base = new URL(process.argv[2] ?? "http://127.0.0.1:3000");
const paths = process.argv.slice(3).length > 0 ? process.argv.slice(3) : ["/post/1", "/create"];
const LINK = { down: 50 * 1024, up: 20 * 1024, delayMs: 150 };

/** One radio link for every connection: a queue per direction, a shared rate, a fixed delay. */
function shapedLink(target: number) {
  type Piece = { to: net.Socket; bytes: Buffer; at: number };
  const queues = { up: [] as Piece[], down: [] as Piece[] };
  const counted = { up: 0, down: 0 };
  const budget = { up: 0, down: 0 };
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    for (const way of ["up", "down"] as const) {
      budget[way] = Math.min(budget[way] + ((now - last) / 1000) * LINK[way], 8 * 1024);
      const queue = queues[way];
      while (queue.length > 0 && queue[0]!.at <= now && budget[way] >= 1) {
        const head = queue[0]!;
        const n = Math.min(head.bytes.length, Math.floor(budget[way]));
        if (!head.to.destroyed) head.to.write(head.bytes.subarray(0, n));
        counted[way] += n;
        budget[way] -= n;
        if (n === head.bytes.length) queue.shift();
        else head.bytes = head.bytes.subarray(n);
      }
    }
    last = now;
  }, 5);
  const server = net.createServer((client) => {
    const upstream = net.connect(target, base.hostname);
    client.on("data", (bytes) => queues.up.push({ to: upstream, bytes, at: Date.now() + LINK.delayMs }));
    upstream.on("data", (bytes) => queues.down.push({ to: client, bytes, at: Date.now() + LINK.delayMs }));
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", close).on("error", close);
    upstream.on("close", close).on("error", close);
  });
  return new Promise<{ port: number; counted: typeof counted; close: () => void }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        counted,
        close: () => {
          clearInterval(timer);
          server.close();
        },
      }),
    ),
  );
}

/** Script requests that reached the network: the worker's own, and the page's that no worker answered. */
function scriptsOnTheWire(context: BrowserContext) {
  const seen: { url: string; at: number }[] = [];
  context.on("requestfinished", async (request) => {
    const url = new URL(request.url());
    if (!url.pathname.endsWith(".js") || !url.pathname.startsWith("/assets/")) return;
    const response = await request.response();
    if (!request.serviceWorker() && response?.fromServiceWorker()) return;
    seen.push({ url: url.pathname, at: Date.now() });
  });
  return seen;
}

const enhanced = (page: Page) =>
  page.waitForFunction(
    () => {
      const main = document.querySelector("main");
      return (
        Boolean(main && Object.keys(main).some((key) => key.startsWith("__reactFiber"))) &&
        document.documentElement.dataset.parts === undefined
      );
    },
    undefined,
    { polling: 50, timeout: 60_000 },
  );

async function main() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  const signIn = await browser.newContext({ serviceWorkers: "block" });
  const tab = await signIn.newPage();
  await tab.goto(new URL("/auth?mode=login", base).href);
  const form = tab.locator("form#login");
  await form.getByLabel("Username").fill("ridgerunner");
  await form.getByLabel("Password").fill("whitetail");
  await form.getByRole("button", { name: "Sign In" }).click();
  await tab.waitForURL((url) => !url.pathname.startsWith("/auth"));
  const cookies = await signIn.cookies();
  await signIn.close();

  for (const path of paths) {
    const link = await shapedLink(Number(base.port));
    const origin = `http://127.0.0.1:${link.port}`;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.addCookies(cookies.map((cookie) => ({ ...cookie, domain: "127.0.0.1" })));
    const wire = scriptsOnTheWire(context);
    const page = await context.newPage();

    // The first visit, then idle until the worker has fetched nothing for 5 s.
    const firstStart = Date.now();
    await page.goto(`${origin}/`);
    await enhanced(page);
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, { timeout: 60_000 });
    const firstEnhanced = Date.now() - firstStart;
    for (;;) {
      const lastAt = Math.max(wire.at(-1)?.at ?? 0, firstStart + firstEnhanced);
      if (Date.now() - lastAt > 5_000) break;
      await page.waitForTimeout(250);
    }
    const idleScripts = wire.length;
    const firstDown = link.counted.down;
    const firstUp = link.counted.up;
    const quietAt = (wire.at(-1)?.at ?? firstStart) - firstStart;

    // The returning member opens the page.
    wire.length = 0;
    const down = link.counted.down;
    const up = link.counted.up;
    const start = Date.now();
    await page.goto(`${origin}${path}`);
    await enhanced(page);
    const enhancedMs = Date.now() - start;
    const readable = await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN);
    const scripts = wire.filter((entry) => entry.at <= start + enhancedMs);
    console.log(
      [
        `${path.padEnd(10)} first visit /: enhanced ${(firstEnhanced / 1000).toFixed(2)} s, ${idleScripts} scripts on the wire until quiet`,
        `(last at ${(quietAt / 1000).toFixed(1)} s), ${(firstDown / 1024).toFixed(1)} KB down / ${(firstUp / 1024).toFixed(1)} KB up`,
        `| returning ${path}: readable ${(readable / 1000).toFixed(2)} s, enhanced ${(enhancedMs / 1000).toFixed(2)} s,`,
        `${scripts.length} scripts on the wire, ${((link.counted.down - down) / 1024).toFixed(1)} KB down / ${((link.counted.up - up) / 1024).toFixed(1)} KB up`,
      ].join(" "),
    );
    if (process.env.RETURNING_VISIT_FILES) for (const s of scripts) console.log(`    ${s.url}`);
    await context.close();
    link.close();
  }
  await browser.close();
}
await main();
