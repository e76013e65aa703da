import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";

// What the server runtime loads (CommonJS), with patches/@remix-run+router+*.patch applied at install
// (docs/decisions/0048-route-matching-and-feed-cards-drawn-once.md).
const router = createRequire(import.meta.url)("@remix-run/router") as typeof import("@remix-run/router");

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

  it("ranks a route tree once and matches it the same every time after", () => {
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
    // The ranked branches are kept for this routes array: a route added to it afterwards is not seen
    // (a server's tree never changes once built; a new build is a new array).
    tree.push({ id: "late", path: "/late", children: [] } as never);
    expect(router.matchRoutes(tree, "/late")).toBeNull();
    expect(router.matchRoutes([...tree], "/late")?.[0]?.route.id).toBe("late");
  });
});
