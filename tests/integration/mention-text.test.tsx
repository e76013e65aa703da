import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { Outlet, type RouteObject } from "react-router";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { PostCard } from "~/components/post/card";
import { MentionText } from "~/components/post/mention-text";
import type { Post } from "~/schemas/shapes";

/**
 * @mentions as the pages draw them (CONTRACT.md §7, issue 26): a name the server found (`mentions`)
 * is a link to the profile, written as the author wrote it; any other `@name` stays text; nothing a
 * member typed becomes markup. The post page and comments draw the same component (the e2e spec
 * tests/e2e/mentions.spec.ts checks them in a browser).
 */

/** `element` as the server draws it, under a data router as Remix's server has one. */
async function draw(element: ReactElement): Promise<string> {
  const routes: RouteObject[] = [
    { id: "root", path: "/", loader: () => ({ dataSaver: false }), element: <Outlet />, children: [{ index: true, element }] },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://x.test/"));
  if (context instanceof Response) throw new Error("redirected");
  const html = renderToString(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
  // Without React's markers between text parts: the text as a reader gets it.
  return html.replaceAll("<!-- -->", "");
}

const links = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => [m[1], m[2]]);

describe("MentionText", () => {
  it("links the names the server found, as typed, to the profile as spelled; others stay text", async () => {
    const html = await draw(
      <MentionText text="Thanks @bob_stand and @CAROL99, not @ghost or mail@carol99.com" mentions={["Bob_Stand", "carol99"]} />,
    );
    expect(links(html)).toEqual([
      ["/profile/Bob_Stand", "@bob_stand"],
      ["/profile/carol99", "@CAROL99"],
    ]);
    expect(html).toContain(", not @ghost or mail@carol99.com");
  });

  it("draws the text as it is when nothing in it is a known mention", async () => {
    const html = await draw(<MentionText text="Hello @ghost <b>x</b>" />);
    expect(links(html)).toEqual([]);
    expect(html).toContain("Hello @ghost &lt;b&gt;x&lt;/b&gt;");
  });

  it("escapes what is around a mention: no markup or attribute comes out of the text", async () => {
    const html = await draw(
      <MentionText text={`@<script>alert(1)</script> @abc"onmouseover=alert(1) x @abc<img src=x onerror=alert(1)>`} mentions={["abc"]} />,
    );
    expect(links(html)).toEqual([
      ["/profile/abc", "@abc"],
      ["/profile/abc", "@abc"],
    ]);
    // No tag but the links: no script, no image, no event attribute.
    expect(html).not.toMatch(/<(script|img)\b|<[^>]*\son\w+=/i);
    expect(html).toContain("@&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&quot;onmouseover=alert(1)");
  });

  it("a name that only looks like a known one (a longer name, an email, a path) is not linked", async () => {
    const html = await draw(<MentionText text="@abcd a@abc.org example.com/@abc @abc_" mentions={["abc"]} />);
    expect(links(html)).toEqual([]);
  });
});

describe("the post card", () => {
  const post: Post = {
    id: 7,
    title: "Big 10-point on the ridge",
    content: "Sat the oak flat with @rosa_n and @nobody_known at first light.",
    type: "article",
    mediaUrl: null,
    urlMetadata: null,
    tags: null,
    clubId: null,
    club: null,
    createdAt: "2026-11-23T15:00:00Z",
    author: { id: 2, username: "rosa_n", displayName: "Rosa Nguyen", avatar: null },
    likes: 0,
    commentsCount: 0,
    shares: 0,
    isLiked: false,
    uploadedFiles: [],
    sensitive: false,
    field: null,
    mentions: ["Rosa_N"],
  };

  it("links a known mention in its excerpt; an unknown name stays text", async () => {
    const html = await draw(<PostCard post={post} viewerId={null} redirectTo="/" />);
    const excerpt = /<p class="post-excerpt"[^>]*>(.*?)<\/p>/s.exec(html)?.[1] ?? "";
    expect(links(excerpt)).toEqual([["/profile/Rosa_N", "@rosa_n"]]);
    expect(excerpt).toContain("and @nobody_known at first light.");
  });
});
