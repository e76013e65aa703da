// @vitest-environment jsdom
import { act } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, Outlet, RouterProvider, useLoaderData, type RouteObject } from "react-router";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RenderCached, setRenderCacheStore } from "~/components/ui/render-cache";
import { PostCard, useCardInputs } from "~/components/post/card";
import type { Post } from "~/schemas/shapes";
import { forgetRenderCache, renderCacheSize, renderCacheStore, setRenderCacheVerify } from "~/web/render-cache.server";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NOW = new Date("2026-11-23T18:00:00Z");
const post = (over: Partial<Post> = {}): Post => ({
  id: 7,
  title: "Big 10-point on the ridge",
  content: "Sat the oak flat at first light. #Rut",
  type: "article",
  mediaUrl: null,
  urlMetadata: null,
  tags: ["Rut", "Bow Hunting", "Scouting", "Ohio"],
  clubId: 3,
  club: { id: 3, name: "Ridge Runners" },
  createdAt: "2026-11-23T15:00:00Z",
  author: { id: 2, username: "rosa", displayName: "Rosa Nguyen", avatar: null },
  likes: 4,
  commentsCount: 2,
  shares: 1,
  isLiked: false,
  uploadedFiles: [],
  sensitive: false,
  field: null,
  ...over,
});

type PageData = { posts: Post[]; viewerId: number | null };
let page: PageData;
let renders = 0;
function Counted({ label }: { label: string }) {
  renders += 1;
  return <span>{label}</span>;
}
/** As the home draws its feed: the page of cards drawn once as a whole, each card drawn once inside it. */
function Feed() {
  const { posts, viewerId } = useLoaderData() as PageData;
  const cardInputs = useCardInputs();
  return (
    <RenderCached
      as="div"
      attrs={{ "data-testid": "feed" }}
      cacheKey={() => ["feed", posts.map((post) => cardInputs({ post, viewerId, redirectTo: "/" }))]}
    >
      <>
        {posts.map((p) => (
          <PostCard key={p.id} post={p} viewerId={viewerId} redirectTo="/" />
        ))}
      </>
    </RenderCached>
  );
}
/** A part whose cache key leaves out the viewer, though the cards inside show the author's menu to the author. */
function LeakyFeed() {
  const { posts, viewerId } = useLoaderData() as PageData;
  return (
    <RenderCached as="div" attrs={{ "data-testid": "feed" }} cacheKey={() => ["leaky", posts.map((p) => p.id)]}>
      <>
        {posts.map((p) => (
          <PostCard key={p.id} post={p} viewerId={viewerId} redirectTo="/leaky" />
        ))}
      </>
    </RenderCached>
  );
}
const routes = (): RouteObject[] => [
  {
    id: "root",
    path: "/",
    loader: () => ({ dataSaver: false }),
    element: <Outlet />,
    children: [
      { id: "feed", index: true, loader: () => page, element: <Feed /> },
      { id: "post", path: "post/:id", element: <p>the post</p> },
      { id: "leaky", path: "leaky", loader: () => page, element: <LeakyFeed /> },
    ],
  },
];

/** The page as the server draws it: a static data router, as Remix's server renders one. */
async function serverHtml(url = "http://x.test/") {
  const handler = createStaticHandler(routes());
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error("redirected");
  return {
    html: renderToString(
      <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
    ),
    context,
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
  forgetRenderCache();
  page = {
    posts: [
      post(),
      post({ id: 8, club: null, clubId: null, author: { id: 1, username: "me", displayName: "Me", avatar: null } }),
      post({ id: 9, isLiked: true, likes: 5 }),
    ],
    viewerId: 1,
  };
});
afterEach(() => {
  setRenderCacheStore(null);
  setRenderCacheVerify(false);
  vi.useRealTimers();
});

describe("feed cards drawn once (RenderCached with the server's render cache store)", () => {
  it("draws the page byte for byte as drawing each card in place does", async () => {
    const inPlace = (await serverHtml()).html;
    setRenderCacheStore(renderCacheStore);
    const drawn = (await serverHtml()).html;
    const kept = (await serverHtml()).html;
    expect(inPlace).toContain('data-testid="post-owner-menu"');
    expect(inPlace).toContain("in<!-- --> <a");
    expect(drawn).toBe(inPlace);
    expect(kept).toBe(inPlace);
  });

  it("draws a part once for the same inputs, and again when one changes", () => {
    setRenderCacheStore(renderCacheStore);
    renders = 0;
    const part = (inputs: unknown, label: string) =>
      renderToString(
        <RenderCached as="div" attrs={{ className: "card" }} cacheKey={() => inputs}>
          <Counted label={label} />
        </RenderCached>,
      );
    expect(part(["a", 1], "first")).toBe('<div class="card"><span>first</span></div>');
    expect(part(["a", 1], "not drawn")).toBe('<div class="card"><span>first</span></div>');
    expect(renders).toBe(1);
    expect(part(["a", 2], "second")).toBe('<div class="card"><span>second</span></div>');
    expect(renders).toBe(2);
  });

  it("keeps at most about 16 MB of parts, and lets the least recently used go first", () => {
    setRenderCacheStore(renderCacheStore);
    renders = 0;
    const big = "x".repeat(100_000);
    const part = (n: number) =>
      renderToString(
        <RenderCached as="div" attrs={{}} cacheKey={() => ["big", n]}>
          <Counted label={big} />
        </RenderCached>,
      );
    for (let n = 0; n < 200; n++) part(n);
    expect(renders).toBe(200);
    const { entries, chars } = renderCacheSize();
    expect(chars).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(entries).toBeGreaterThan(100);
    expect(entries).toBeLessThan(200);
    part(199);
    expect(renders).toBe(200);
    part(0);
    expect(renders).toBe(201);
  });

  it("draws a card again when what it shows changes: a like, another viewer, the URL, the clock", async () => {
    setRenderCacheStore(renderCacheStore);
    const first = (await serverHtml()).html;
    expect(first).toContain("about 3 hours ago");
    page.posts[0] = post({ likes: 5, isLiked: true });
    const liked = (await serverHtml()).html;
    expect(liked).toContain("Unlike (5 likes)");
    page.viewerId = 2;
    const asAuthor = (await serverHtml()).html;
    // Rosa's own card (id 7) now has the author's menu; "Me"'s card (id 8) lost it.
    expect(asAuthor.match(/post-owner-menu/g)).toHaveLength(2);
    expect((await serverHtml("http://x.test/?sortBy=popular")).html).toContain('name="redirectTo" value="/#post-7"');
    vi.setSystemTime(new Date(NOW.getTime() + 2 * 3600_000));
    expect((await serverHtml()).html).toContain("about 5 hours ago");
  });

  it("hydrates in the browser over the kept HTML without a mismatch, and its controls work", async () => {
    setRenderCacheStore(renderCacheStore);
    await serverHtml();
    const { html, context } = await serverHtml();
    setRenderCacheStore(null);
    const host = document.createElement("div");
    host.innerHTML = html;
    document.body.append(host);
    const before = host.innerHTML;
    const card = host.querySelector("#post-7");
    const errors: unknown[] = [];
    const consoleError = vi.spyOn(console, "error").mockImplementation((...args) => errors.push(args));
    const router = createMemoryRouter(routes(), { hydrationData: { loaderData: context.loaderData } });
    await act(async () => {
      hydrateRoot(host, <RouterProvider router={router} />, { onRecoverableError: (error) => errors.push(error) });
    });
    expect(errors).toEqual([]);
    consoleError.mockRestore();
    // React kept the server's nodes (a mismatch would have drawn the cards afresh).
    expect(host.innerHTML).toBe(before);
    expect(host.querySelector("#post-7")).toBe(card);
    const title = host.querySelector<HTMLAnchorElement>("#post-8-title a")!;
    await act(async () => title.click());
    expect(router.state.location.pathname).toBe("/post/8");
    expect(host.textContent).toBe("the post");
  });
});

describe("render cache verify mode (RENDER_CACHE_VERIFY=1)", () => {
  it("fails the draw loudly when a key leaves out something the part shows (the viewer)", async () => {
    setRenderCacheStore(renderCacheStore);
    const asMe = (await serverHtml("http://x.test/leaky")).html;
    expect(asMe.match(/post-owner-menu/g)).toHaveLength(1);
    page.viewerId = 2;
    // Without verify mode the kept part is served: "Me"'s Edit/Delete menu shown to Rosa.
    expect((await serverHtml("http://x.test/leaky")).html).toBe(asMe);
    setRenderCacheVerify(true);
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(serverHtml("http://x.test/leaky")).rejects.toThrow(
      /Render cache verify: the part kept for key \["leaky",\[7,8,9\]\] differs/,
    );
    expect(consoleError).toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it("passes every hit whose key names all the part shows (the home's feed and cards)", async () => {
    setRenderCacheStore(renderCacheStore);
    setRenderCacheVerify(true);
    const first = (await serverHtml()).html;
    expect((await serverHtml()).html).toBe(first);
    page.viewerId = 2;
    page.posts[0] = post({ likes: 5, isLiked: true });
    const other = (await serverHtml()).html;
    expect(other).not.toBe(first);
    expect((await serverHtml()).html).toBe(other);
  });
});
