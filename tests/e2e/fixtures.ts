import { AxeBuilder } from "@axe-core/playwright";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { test as base, expect, type APIRequestContext, type Page, type Response } from "@playwright/test";
import Database from "better-sqlite3";
import pg from "pg";
import { SERVER_BUILD } from "../../scripts/build-dirs";
import "../fixtures/keep-alive-hint";

/**
 * The one place e2e specs get their tools from: `import { test, expect } from "./fixtures"`.
 *
 * Every spec runs in two projects (playwright.config.ts): js-off, where every page must work as
 * plain HTML, and js-on. `js` says which one a test runs in; pages made with `newPage` get the same
 * setting. Members are signed up through the JSON API (fast); the join form itself is covered by
 * auth.spec.ts.
 */

export type Member = { username: string; displayName: string; password: string };
export type ApiPost = { id: number; title: string; content: string; tags: string[] | null; type: string };

/** The demo member that `SEED_DEMO=1` creates. */
export const DEMO = { username: "ridgerunner", password: "whitetail", displayName: "Jake Holloway" };

/**
 * The suite's PostgreSQL database in the PostgreSQL run (playwright.pg.config.ts sets it); unset in
 * the SQLite run. Servers a spec starts use it as DATABASE_URL: on PostgreSQL they share the suite's
 * database (their `dataDir` still holds their uploads).
 */
export const suiteDatabaseUrl = process.env.E2E_DATABASE_URL;
export const engine: "sqlite" | "postgres" = suiteDatabaseUrl ? "postgres" : "sqlite";

/**
 * An operator command (`scripts/<script>`, as `npm run …` runs it) on the suite's database: its
 * SQLite file, or on PostgreSQL the suite's URL. Its printed output.
 */
export function operatorCommand(script: string, args: string[]): string {
  const dataDir = process.env.E2E_DATA_DIR ?? `tmp/e2e-${process.env.E2E_PORT ?? 3100}`;
  return execFileSync(process.execPath, ["--import", "tsx", `scripts/${script}`, ...args], {
    env: { ...process.env, ...(suiteDatabaseUrl ? { DATABASE_URL: suiteDatabaseUrl } : { DATABASE_PATH: `${dataDir}/app.db` }) },
    encoding: "utf8",
  });
}

/** `npm run role -- <username> <role>` on the suite's database, as the operator runs it. */
export const setSiteRole = (username: string, role: "member" | "moderator" | "admin") => operatorCommand("role.ts", [username, role]);

/**
 * Rows of a read-only query on the database a server started on `dataDir` uses: its `app.db` on
 * SQLite, the suite's database on PostgreSQL. Write it in SQL both engines read the same.
 */
export async function queryDatabase<T>(dataDir: string, query: string): Promise<T[]> {
  if (suiteDatabaseUrl) {
    const client = new pg.Client({ connectionString: suiteDatabaseUrl });
    await client.connect();
    try {
      return (await client.query(query)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(`${dataDir}/app.db`, { readonly: true });
  try {
    return db.prepare(query).all() as T[];
  } finally {
    db.close();
  }
}

/**
 * A second production server beside the suite's own (same build and secret), with `env` on top:
 * resolves once it answers, on 127.0.0.1. The caller kills it in afterAll. `onOutput` receives what
 * it prints (stdout and stderr).
 */
export async function startServer(
  port: number,
  dataDir: string,
  env: Record<string, string>,
  { onOutput }: { onOutput?: (text: string) => void } = {},
): Promise<ChildProcess> {
  const build = SERVER_BUILD;
  const server = spawn(process.execPath, ["server.js", build], {
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "production",
      DATABASE_PATH: `${dataDir}/app.db`,
      ...(suiteDatabaseUrl ? { DATABASE_URL: suiteDatabaseUrl } : {}),
      UPLOAD_DIR: `${dataDir}/uploads`,
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      SEED_DEMO: "0",
      ...env,
    },
    stdio: onOutput ? ["ignore", "pipe", "pipe"] : "ignore",
  });
  server.stdout?.on("data", (chunk: Buffer) => onOutput?.(chunk.toString("utf8")));
  server.stderr?.on("data", (chunk: Buffer) => onOutput?.(chunk.toString("utf8")));
  // Up to 30 s: a production start (migrations, first import) took over 10 s on a loaded machine.
  for (let i = 0; i < 300; i++) {
    // Exited (the port taken by a server left over from an interrupted run): not ours to test.
    if (server.exitCode !== null) throw new Error(`server on port ${port} exited with ${server.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/auth/user`)).status === 401) return server;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill();
  throw new Error(`server on port ${port} did not start`);
}

/** A club (private unless `data` says otherwise), made through POST /api/clubs by the member signed in on `as`. */
export async function apiClub(as: Page, baseURL: string, data: Record<string, unknown> = {}) {
  const res = await as.request.post("/api/clubs", {
    data: {
      name: `Club ${uniqueName("v")}`,
      description: "A club made for an end-to-end test: posts, joins and limits.",
      isPrivate: true,
      ...data,
    },
    headers: { Origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; name: string };
}

/** A club with `limit` places, `members` of them taken (its owner among them), and an unlimited invite. */
export async function clubWithInvite(
  {
    newPage,
    signUp,
    baseURL,
  }: { newPage: () => Promise<Page>; signUp: (into?: Page, prefix?: string) => Promise<Member>; baseURL?: string },
  limit: number,
  members: number,
) {
  const owner = await newPage();
  await signUp(owner, "o");
  const name = `Full Lease ${uniqueName("c")}`;
  const club = await apiClub(owner, baseURL!, { name, memberLimit: limit });
  const headers = { Origin: baseURL! };
  const invite = await (await owner.request.post(`/api/clubs/${club.id}/invites`, { data: {}, headers })).json();
  const code = invite.inviteCode as string;
  /** One more member joins through the invite (the JSON surface). */
  const fillOne = async () => {
    const other = await newPage();
    await signUp(other, "j");
    const res = await other.request.post(`/api/clubs/${club.id}/join`, { data: { inviteCode: code }, headers });
    expect(res.status(), await res.text()).toBe(200);
  };
  for (let i = 1; i < members; i++) await fillOne();
  return { id: club.id, name, code, fillOne };
}

let counter = 0;
/** A username no other test (or retry) uses: 3–20 letters, digits and underscores. */
export function uniqueName(prefix = "u") {
  counter += 1;
  const stamp = `${Date.now().toString(36).slice(-5)}${process.pid.toString(36).slice(-2)}${counter}`;
  return `${prefix}_${stamp}`.slice(0, 20);
}

/**
 * With JavaScript on, wait until React has hydrated the page, and the parts whose code comes after
 * the first load (a page's main form, docs/decisions/0046) with it: a click before that is a plain
 * HTML form post or link (which works, but is not the enhanced behaviour a js-on test checks). A
 * page sent without scripts (a visitor's home, docs/decisions/0047) is ready as it loads.
 * `polling` (ms) polls on a timer, not on animation frames, which a page in the background never gets.
 */
export async function hydrated(page: Page, { polling }: { polling?: number } = {}) {
  await page.waitForFunction(
    () => {
      // A visitor's home has no scripts to hydrate it (docs/decisions/0047).
      if (document.documentElement.dataset.scripts === "none") return true;
      const main = document.querySelector("main");
      const hydratedMain = Boolean(main && Object.keys(main).some((key) => key.startsWith("__reactFiber")));
      return hydratedMain && document.documentElement.dataset.parts === undefined;
    },
    undefined,
    polling ? { polling } : undefined,
  );
}

/**
 * With JavaScript on, wait until a service worker controls the page and has saved `path` (the first
 * page of a visit included): from then on it reopens offline (docs/decisions/0033).
 */
export async function savedPage(page: Page, path: string) {
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
  await expect
    .poll(() => page.evaluate((url) => caches.match(url, { ignoreVary: true }).then(Boolean), path), { intervals: [100] })
    .toBe(true);
}

/** Anything whose `request` carries cookies: a page, a browser context, or `{ request }`. */
type Requester = { request: APIRequestContext };

type Fixtures = {
  /** True in the js-on project, false in js-off. */
  js: boolean;
  /** `page.goto(url)`, then (js-on) wait for hydration. Another page may be passed. */
  open: (url: string, target?: Page) => Promise<Response | null>;
  /**
   * A new member, through POST /api/auth/register; the session cookie lands where `into` keeps its
   * cookies (the test's page by default). The Origin header satisfies the same-origin check.
   */
  signUp: (into?: Requester, prefix?: string) => Promise<Member>;
  /** Sign in through the /auth form (works with JavaScript on or off) and wait for the welcome toast. */
  signIn: (username: string, password: string, target?: Page) => Promise<void>;
  /** Create a post as the member signed in where `as` keeps its cookies, through POST /api/posts. */
  createPost: (data?: Partial<Record<string, unknown>>, as?: Requester) => Promise<ApiPost>;
  /** A page in a fresh browser context (another browser: no cookies), with this project's settings. Closed after the test. */
  newPage: () => Promise<Page>;
};

export const test = base.extend<Fixtures>({
  js: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },

  open: async ({ page, js }, use) => {
    await use(async (url, target = page) => {
      const response = await target.goto(url);
      if (js) await hydrated(target);
      return response;
    });
  },

  signUp: async ({ page, baseURL }, use) => {
    await use(async (into = page, prefix = "m") => {
      const username = uniqueName(prefix);
      const member = { username, displayName: `Hunter ${username}`, password: "secret123" };
      const res = await into.request.post("/api/auth/register", {
        data: { username, displayName: member.displayName, email: `${username}@example.com`, password: member.password },
        headers: { Origin: baseURL! },
      });
      expect(res.status(), await res.text()).toBe(201);
      return member;
    });
  },

  signIn: async ({ page }, use) => {
    await use(async (username, password, target = page) => {
      await target.goto("/auth?mode=login");
      const form = target.locator("form#login");
      await form.getByLabel("Username").fill(username);
      await form.getByLabel("Password").fill(password);
      await form.getByRole("button", { name: "Sign In" }).click();
      await expect(target.getByTestId("toast")).toContainText("Welcome back!");
    });
  },

  createPost: async ({ page, baseURL }, use) => {
    await use(async (data = {}, as = page) => {
      const res = await as.request.post("/api/posts", {
        data: {
          title: `Post ${uniqueName("t")}`,
          content: "A long enough body about a morning in the stand.",
          type: "article",
          ...data,
        },
        headers: { Origin: baseURL! },
      });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as ApiPost;
    });
  },

  newPage: async ({ browser, javaScriptEnabled, baseURL }, use) => {
    const contexts: Array<Awaited<ReturnType<typeof browser.newContext>>> = [];
    await use(async () => {
      const context = await browser.newContext({ javaScriptEnabled, baseURL });
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
});

export { expect };

/**
 * axe-core with its default rules, none turned off, on the page as it stands (issue 42: every page
 * state a fix touches). axe runs in the page: JavaScript on.
 */
export async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}
