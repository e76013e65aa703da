import { createStaticHandler, createStaticRouter, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { frameworkPatches } from "./framework-patches.server";

/**
 * patches/react-router+7.18.7.patch (docs/decisions/0083): the server matches each path against its
 * ranked routes once, and makes a build's data routes once, where React Router 7 does both on every
 * request. Counted, not timed: route matching decodes every segment of the path it tries
 * (`decodeURIComponent`), so a path matched again shows as segments decoded again.
 */
async function segmentsDecoded(run: () => Promise<unknown>): Promise<number> {
  const original = globalThis.decodeURIComponent;
  let count = 0;
  globalThis.decodeURIComponent = (value: string) => {
    count += 1;
    return original(value);
  };
  try {
    await run();
  } finally {
    globalThis.decodeURIComponent = original;
  }
  return count;
}

/** A tree like the site's: a root layout, many siblings, one with a parameter whose loader reads (and changes) its params. */
function routes(seen: string[]): RouteObject[] {
  const siblings = Array.from({ length: 40 }, (_, i) => ({ id: `page-${i}`, path: `page-${i}`, loader: () => null }));
  return [
    {
      id: "root",
      path: "/",
      loader: () => null,
      children: [
        ...siblings,
        {
          id: "post",
          path: "post/:id",
          loader: ({ params }) => {
            seen.push(params.id!);
            (params as Record<string, string>).id = "changed by a loader";
            return null;
          },
        },
      ],
    },
  ];
}

describe("route matching once per path (framework patch, ADR 0083)", () => {
  it("matches a path the server has matched before without trying the routes again", async () => {
    const seen: string[] = [];
    const handler = createStaticHandler(routes(seen));
    const ask = (path: string) => handler.query(new Request(`http://127.0.0.1${path}`));
    const first = await segmentsDecoded(() => ask("/post/7"));
    const again = await segmentsDecoded(() => ask("/post/7"));
    expect(first).toBeGreaterThan(0);
    expect(again).toBe(0);
    // Another path is matched afresh.
    expect(await segmentsDecoded(() => ask("/post/8"))).toBeGreaterThan(0);
  });

  it("gives every request its own params: what one request's loader changes never reaches the next", async () => {
    const seen: string[] = [];
    const handler = createStaticHandler(routes(seen));
    for (const path of ["/post/7", "/post/7", "/post/8", "/post/7"]) {
      const context = await handler.query(new Request(`http://127.0.0.1${path}`));
      if (context instanceof Response) throw new Error(`a response for ${path}`);
      expect(context.matches.map((m) => m.route.id)).toEqual(["root", "post"]);
    }
    expect(seen).toEqual(["7", "7", "8", "7"]);
  });

  it("answers a path no route claims with a 404, every time", async () => {
    const handler = createStaticHandler(routes([]));
    for (let i = 0; i < 2; i++) {
      const context = await handler.query(new Request("http://127.0.0.1/nothing/here"));
      if (context instanceof Response) throw new Error("a response");
      expect(context.statusCode).toBe(404);
    }
  });

  it("makes the static router's data routes once per routes array, not per render", async () => {
    const tree = routes([]);
    const handler = createStaticHandler(tree);
    const context = await handler.query(new Request("http://127.0.0.1/page-3"));
    if (context instanceof Response) throw new Error("a response");
    const a = createStaticRouter(tree, context);
    const b = createStaticRouter(tree, context);
    expect(b.routes).toBe(a.routes);
    expect(a.state.matches.map((m) => m.route.id)).toEqual(["root", "page-3"]);
    // Another routes array (another build) gets its own.
    expect(createStaticRouter(routes([]), context).routes).not.toBe(a.routes);
  });

  it("is active in the node_modules the tests run on (the server says so at start-up)", () => {
    const patch = frameworkPatches().find((p) => p.patch.startsWith("react-router+"));
    expect(patch).toMatchObject({ active: true });
  });
});
