// @vitest-environment jsdom
import { act } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, Outlet, RouterProvider, useLoaderData, type RouteObject } from "react-router-dom";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DrawnOnce, setPartDrawer } from "~/components/ui/drawn-once";
import { PostCard, useCardInputs } from "~/components/post/card";
import type { Post } from "~/schemas/shapes";
import { forgetDrawnParts, keptDrawnParts, partDrawer } from "~/web/drawn-parts.server";

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
    <DrawnOnce
      as="div"
      attrs={{ "data-testid": "feed" }}
      inputs={() => ["feed", posts.map((post) => cardInputs({ post, viewerId, redirectTo: "/" }))]}
    >
      <>
        {posts.map((p) => (
          <PostCard key={p.id} post={p} viewerId={viewerId} redirectTo="/" />
        ))}
      </>
    </DrawnOnce>
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
  forgetDrawnParts();
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
  setPartDrawer(null);
  vi.useRealTimers();
});

describe("feed cards drawn once (DrawnOnce with the server's drawer)", () => {
  it("draws the page byte for byte as drawing each card in place does", async () => {
    const inPlace = (await serverHtml()).html;
    setPartDrawer(partDrawer);
    const drawn = (await serverHtml()).html;
    const kept = (await serverHtml()).html;
    expect(inPlace).toContain('data-testid="post-owner-menu"');
    expect(inPlace).toContain("in<!-- --> <a");
    expect(drawn).toBe(inPlace);
    expect(kept).toBe(inPlace);
  });

  it("draws a part once for the same inputs, and again when one changes", () => {
    setPartDrawer(partDrawer);
    renders = 0;
    const part = (inputs: unknown, label: string) =>
      renderToString(
        <DrawnOnce as="div" attrs={{ className: "card" }} inputs={() => inputs}>
          <Counted label={label} />
        </DrawnOnce>,
      );
    expect(part(["a", 1], "first")).toBe('<div class="card"><span>first</span></div>');
    expect(part(["a", 1], "not drawn")).toBe('<div class="card"><span>first</span></div>');
    expect(renders).toBe(1);
    expect(part(["a", 2], "second")).toBe('<div class="card"><span>second</span></div>');
    expect(renders).toBe(2);
  });

  it("keeps at most about 16 MB of parts, and lets the least recently used go first", () => {
    setPartDrawer(partDrawer);
    renders = 0;
    const big = "x".repeat(100_000);
    const part = (n: number) =>
      renderToString(
        <DrawnOnce as="div" attrs={{}} inputs={() => ["big", n]}>
          <Counted label={big} />
        </DrawnOnce>,
      );
    for (let n = 0; n < 200; n++) part(n);
    expect(renders).toBe(200);
    const { entries, chars } = keptDrawnParts();
    expect(chars).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(entries).toBeGreaterThan(100);
    expect(entries).toBeLessThan(200);
    part(199);
    expect(renders).toBe(200);
    part(0);
    expect(renders).toBe(201);
  });

  it("draws a card again when what it shows changes: a like, another viewer, the URL, the clock", async () => {
    setPartDrawer(partDrawer);
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
    setPartDrawer(partDrawer);
    await serverHtml();
    const { html, context } = await serverHtml();
    setPartDrawer(null);
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
