import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";

// What the server loads (CommonJS), with patches/*.patch applied at install (docs/decisions/0048).
const load = createRequire(import.meta.url);
const router = load("@remix-run/router") as typeof import("@remix-run/router");
const routerServer = load("react-router-dom/server") as typeof import("react-router-dom/server");

const routes = () => [
  {
    id: "root",
    path: "/",
    children: [
      { id: "post", path: "post/:id" },
      { id: "clubs", path: "clubs/:id/*" },
      { id: "home", index: true },
    ],
  },
];

describe("route matching on the server (patched @remix-run/router)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("compiles a route pattern once, not on every match", () => {
    router.matchPath("/widgets/:id", "/widgets/1");
    const compiled = vi.spyOn(globalThis, "RegExp");
    for (let i = 0; i < 50; i++) expect(router.matchPath("/widgets/:id", `/widgets/${i}`)?.params.id).toBe(String(i));
    expect(compiled).not.toHaveBeenCalled();
  });

  it("matches a route tree's pathname once, and every match after gives the same answer", () => {
    const tree = routes();
    const first = router.matchRoutes(tree, "/post/7");
    const again = router.matchRoutes(tree, "/post/8");
    expect(first?.map((m) => m.route.id)).toEqual(["root", "post"]);
    expect(again?.map((m) => [m.route.id, m.params.id])).toEqual([
      ["root", "8"],
      ["post", "8"],
    ]);
    expect(router.matchRoutes(tree, "/clubs/3/members")?.at(-1)?.params).toEqual({ id: "3", "*": "members" });
    expect(router.matchRoutes(tree, "/")?.at(-1)?.route.id).toBe("home");
    expect(router.matchRoutes(tree, "/nowhere/at/all")).toBeNull();
    // What was matched is kept for this routes array: a route added to it afterwards is not seen (a
    // server's tree never changes once built; a new build is a new array).
    tree.push({ id: "late", path: "/late", children: [] } as never);
    expect(router.matchRoutes(tree, "/late")).toBeNull();
    expect(router.matchRoutes([...tree], "/late")?.[0]?.route.id).toBe("late");
  });

  it("gives each caller matches of its own: what one request changes does not reach the next", () => {
    const tree = routes();
    const mine = router.matchRoutes(tree, "/post/9")!;
    // One params object for the branch, as a fresh match gives.
    expect(mine[0]!.params).toBe(mine[1]!.params);
    (mine[1]!.params as Record<string, string>).id = "changed";
    (mine[1] as { pathname: string }).pathname = "/elsewhere";
    const next = router.matchRoutes(tree, "/post/9")!;
    expect(next[1]).toMatchObject({ pathname: "/post/9", params: { id: "9" } });
    expect(next[1]!.route).toBe(mine[1]!.route);
  });

  it("makes a static router's data routes once per routes array (react-router-dom/server)", async () => {
    const tree = routes();
    const handler = routerServer.createStaticHandler(tree);
    const context = await handler.query(new Request("http://x.test/post/3"));
    if (context instanceof Response) throw new Error("redirected");
    const one = routerServer.createStaticRouter(tree, context);
    const two = routerServer.createStaticRouter(tree, context);
    expect(two.routes).toBe(one.routes);
    expect(two.state.matches.map((m) => m.route.id)).toEqual(["root", "post"]);
    expect(two.state.matches[1]!.route).toBe(one.routes[0]!.children![0]);
  });
});
