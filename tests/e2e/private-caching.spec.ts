import { expect, test } from "./fixtures";

/**
 * Issue 11, "Private data stays private" (security review L6): the Cache-Control of the real document
 * and loader-data answers of the running server (loaders' headers reach documents only through
 * entry.server.tsx; single fetch's `.data` answers through the routes' `headers` exports, ADR 0079).
 * HTTP only: runs once (js-off).
 */
test.skip(({ javaScriptEnabled }) => javaScriptEnabled !== false, "HTTP only: runs in js-off");

test("member documents are private, no-cache; settings, invites and /join are private, no-store; visitors get public, s-maxage", async ({
  page,
  request,
  baseURL,
  signUp,
}) => {
  await signUp(page);
  const created = await page.request.post("/api/clubs", {
    data: { name: `Cedar Swamp ${Date.now()}`, description: "A private camp for the swamp bucks.", isPrivate: true },
    headers: { Origin: baseURL! },
  });
  expect(created.status(), await created.text()).toBe(201);
  const clubId = ((await created.json()) as { id: number }).id;

  const member = async (path: string) => {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(200);
    return res.headers()["cache-control"];
  };
  expect(await member("/")).toBe("private, no-cache");
  expect(await member(`/clubs/${clubId}`)).toBe("private, no-cache");
  expect(await member(`/clubs/${clubId}.data`)).toBe("private, no-cache");
  expect(await member("/_root.data")).toBe("private, no-cache");
  expect(await member("/settings")).toBe("private, no-store");
  expect(await member("/settings.data")).toBe("private, no-store");
  expect(await member("/settings.data?_routes=root%2Croutes%2Fsettings")).toBe("private, no-store");
  expect(await member(`/clubs/${clubId}/invites`)).toBe("private, no-store");
  expect(await member(`/clubs/${clubId}/invites.data`)).toBe("private, no-store");
  expect(await member("/api/auth/user")).toBe("private, no-store");
  expect(await member("/api/posts/trending")).toBe("private, no-cache");

  // A visitor (no cookies): nothing private; a shared cache may keep the page (issue 13, ADR 0032).
  const visitor = async (path: string) => (await request.get(path)).headers()["cache-control"];
  const shared = "public, max-age=0, s-maxage=10, stale-while-revalidate=60";
  expect(await visitor("/")).toBe(shared);
  expect(await visitor(`/clubs/${clubId}`)).toBe(shared);
  expect(await visitor("/_root.data")).toBe(shared);
  expect(await visitor("/join/not-a-real-code")).toBe("private, no-store");
  expect(await visitor("/join/not-a-real-code.data")).toBe("private, no-store");
});
