import { expect, type Page, type TestInfo } from "@playwright/test";
import { uniqueName } from "./helpers";

/** True in the js-on project. */
export const hasJs = (info: TestInfo) => info.project.name === "js-on";

/**
 * Join through the JSON API (fast); the session cookie lands in the page's browser context.
 * The Origin header satisfies the same-origin check every mutation goes through.
 */
export async function joinViaApi(page: Page, baseURL: string, prefix = "p") {
  const username = uniqueName(prefix);
  const res = await page.request.post("/api/auth/register", {
    data: { username, displayName: `Hunter ${username}`, email: `${username}@example.com`, password: "secret123" },
    headers: { Origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { username, displayName: `Hunter ${username}`, password: "secret123" };
}

export type ApiPost = { id: number; title: string; content: string; tags: string[] | null; type: string };

/** Create a post as the signed-in member of this page's context, through POST /api/posts. */
export async function createPostViaApi(page: Page, baseURL: string, data: Partial<Record<string, unknown>> = {}): Promise<ApiPost> {
  const res = await page.request.post("/api/posts", {
    data: {
      title: `Post ${uniqueName("t")}`,
      content: "A long enough body about a morning in the stand.",
      type: "article",
      ...data,
    },
    headers: { Origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as ApiPost;
}

/**
 * With JavaScript on, wait until React has hydrated the page: a click before that is a plain HTML
 * form post or link (which works, but is not the enhanced behaviour a js-on test checks).
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector("main");
    return Boolean(main && Object.keys(main).some((key) => key.startsWith("__reactFiber")));
  });
}

/** page.goto, then (js-on) wait for hydration. */
export async function open(page: Page, info: TestInfo, url: string) {
  const response = await page.goto(url);
  if (hasJs(info)) await hydrated(page);
  return response;
}
