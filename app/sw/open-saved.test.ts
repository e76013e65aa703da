import { describe, expect, it } from "vitest";
import {
  asksOnlyFor,
  buildVersionOf,
  manifestPaths,
  OPEN_SAVED_SCRIPT,
  openedFrom,
  openSavedScript,
  parseBuildManifest,
  routesToOpen,
  withOpenScript,
  type DiscoveredRoute,
} from "./open-saved-document";
import { OPEN_SAVED_TARGET } from "../offline/saved-pages";

/** Opening a page from its saved loader data on another page's saved document (app/sw/open-saved.ts), without a browser. */

const route = (id: string, parentId: string, hasLoader = true): DiscoveredRoute => ({
  id,
  parentId,
  module: `/assets/${id}-HASH.js`,
  imports: [`/assets/chunk-${id.length}.js`],
  hasLoader,
});

const routes = new Map(
  [
    route("routes/post.$id", "root"),
    route("routes/clubs.$id", "root"),
    route("routes/clubs.$id._index", "routes/clubs.$id"),
    route("routes/clubs.$id.rules", "routes/clubs.$id", false),
  ].map((r) => [r.id, r]),
);

describe("routesToOpen", () => {
  it("opens a page whose every route below the root has saved data, and names the modules to load", () => {
    const open = routesToOpen(new Set(["routes/post.$id"]), routes);
    expect(open?.routes.map((r) => r.id)).toEqual(["routes/post.$id"]);
    expect(open?.modules).toEqual(["/assets/routes/post.$id-HASH.js", "/assets/chunk-15.js"]);
  });

  it("walks up to the root: a nested page needs its layout's data too", () => {
    expect(routesToOpen(new Set(["routes/clubs.$id._index"]), routes)).toBeNull();
    const open = routesToOpen(new Set(["routes/clubs.$id._index", "routes/clubs.$id"]), routes);
    expect(open?.routes.map((r) => r.id).sort()).toEqual(["routes/clubs.$id", "routes/clubs.$id._index"]);
  });

  it("does not ask data of a route without a loader", () => {
    expect(routesToOpen(new Set(["routes/clubs.$id.rules", "routes/clubs.$id"]), routes)).not.toBeNull();
  });

  it("refuses a route the device does not know, or nothing saved", () => {
    expect(routesToOpen(new Set(["routes/profile.$username"]), routes)).toBeNull();
    expect(routesToOpen(new Set(), routes)).toBeNull();
  });
});

describe("buildVersionOf", () => {
  it("reads the inline route manifest's version (route discovery on)", () => {
    const html =
      '<html lang="en"><body><script>window.__reactRouterManifest = {\n  "entry": {},\n  "version": "69ac56fb"\n};</script></body></html>';
    expect(buildVersionOf(html)).toBe("69ac56fb");
  });

  it("reads the manifest file's name otherwise", () => {
    expect(buildVersionOf('<html><head><link rel="modulepreload" href="/assets/manifest-69ac56fb.js"/></head></html>')).toBe("69ac56fb");
  });

  it("is null for a page sent without scripts, or with none found", () => {
    expect(
      buildVersionOf('<html lang="en" data-scripts="none"><body>window.__reactRouterManifest = {"version": "1"}</body></html>'),
    ).toBeNull();
    expect(buildVersionOf("<html><body></body></html>")).toBeNull();
  });
});

describe("parseBuildManifest", () => {
  it("reads the routes and version of a build's manifest file", () => {
    const text = `window.__reactRouterManifest={"entry":{},"routes":{"root":{"id":"root","module":"/assets/root.js","hasLoader":true}},"version":"ab12","url":"/assets/manifest-ab12.js"};`;
    expect(parseBuildManifest(text)).toEqual({
      version: "ab12",
      routes: { root: { id: "root", module: "/assets/root.js", hasLoader: true } },
    });
  });

  it("is null for anything else", () => {
    expect(parseBuildManifest("window.__reactRouterManifest={broken")).toBeNull();
    expect(parseBuildManifest('window.__reactRouterManifest={"routes":{}};')).toBeNull();
    expect(parseBuildManifest("alert(1)")).toBeNull();
  });
});

describe("withOpenScript", () => {
  it("puts the worker's script first in the head, named by the page it opens on", () => {
    const html =
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><script type="module" src="/assets/x.js"></script></head><body></body></html>';
    expect(withOpenScript(html, "/?sort=new&tag=rut")).toBe(
      `<!DOCTYPE html><html lang="en"><head><script src="${OPEN_SAVED_SCRIPT}?from=%2F%3Fsort%3Dnew%26tag%3Drut"></script><meta charset="utf-8"/><script type="module" src="/assets/x.js"></script></head><body></body></html>`,
    );
  });

  it("gives up on a document without a head", () => {
    expect(withOpenScript("<p>hello</p>", "/")).toBeNull();
  });
});

describe("openSavedScript", () => {
  it("leaves no trace in the document it runs on, puts the donor's address back and names the page asked for", () => {
    // React 18 hydrates the whole document: the script element itself, left in the head, did not match
    // what the saved page was drawn with (ux-3 U18, #418 twelve times and #423).
    const removed: string[] = [];
    const style = { visibility: "" };
    const window: Record<string, unknown> = {};
    const replaced: unknown[] = [];
    const history = { state: { key: "k" }, replaceState: (state: unknown, _unused: string, url: string) => void replaced.push(state, url) };
    const run = new Function("document", "window", "history", "location", "setTimeout", openSavedScript("/?sort=new"));
    run(
      { currentScript: { remove: () => removed.push("script") }, documentElement: { style } },
      window,
      history,
      { pathname: "/post/3", search: "?c=1", hash: "#comments" },
      () => 0,
    );
    expect(removed).toEqual(["script"]);
    expect(window[OPEN_SAVED_TARGET]).toBe("/post/3?c=1#comments");
    expect(replaced).toEqual([{ key: "k" }, "/?sort=new"]);
    expect(style.visibility).toBe("hidden");
  });
});

describe("openedFrom", () => {
  it("takes only this site's own paths", () => {
    expect(openedFrom("/clubs?q=ridge")).toBe("/clubs?q=ridge");
    for (const bad of [null, "", "//evil.example/", "https://evil.example/", "javascript:alert(1)", "/\\evil.example"])
      expect(openedFrom(bad)).toBeNull();
  });
});

describe("manifestPaths", () => {
  it("reads React Router 7's comma-joined paths, and a Remix 2 page's one p each", () => {
    expect(manifestPaths(new URL("http://x.test/__manifest?paths=%2Fpost%2F3,%2Fprofile%2Fann&version=abc"))).toEqual([
      "/post/3",
      "/profile/ann",
    ]);
    expect(manifestPaths(new URL("http://x.test/__manifest?p=/post/3&p=/clubs&version=abc"))).toEqual(["/post/3", "/clubs"]);
    expect(manifestPaths(new URL("http://x.test/__manifest?version=abc"))).toEqual([]);
  });
});

describe("asksOnlyFor", () => {
  it("is the page's own path with its ancestors, as React Router 7 asks, and nothing else", () => {
    expect(asksOnlyFor(["/post", "/post/3"], "/post/3")).toBe(true);
    expect(asksOnlyFor(["/post/3"], "/post/3")).toBe(true);
    expect(asksOnlyFor(["/", "/clubs", "/clubs/4", "/clubs/4/members"], "/clubs/4/members")).toBe(true);
    expect(asksOnlyFor(["/post"], "/post/3")).toBe(false);
    expect(asksOnlyFor(["/post/3", "/profile/ann"], "/post/3")).toBe(false);
    expect(asksOnlyFor(["/po", "/post/3"], "/post/3")).toBe(false);
    expect(asksOnlyFor([], "/post/3")).toBe(false);
  });
});
