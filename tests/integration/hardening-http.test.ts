import { beforeAll, describe, expect, it } from "vitest";
import { listComments } from "~/models/posts/comment.server";
import { createPost } from "~/models/posts/post.server";
import * as commentsApi from "~/routes/api.posts.$id.comments";
import * as authPage from "~/routes/auth/route";
import * as clubPage from "~/routes/clubs.$id/route";
import * as postPage from "~/routes/post.$id/route";
import * as profilePage from "~/routes/profile.$username/route";
import { call, createMember, makeRequest } from "../fixtures/members";
import { makeClub } from "../fixtures/posts";

/**
 * Issue 11, "Redirects stay home" and "The JSON surface is strict", at route level. What only a
 * running server shows (broken percent-encoding, headers, a bad Host) is in
 * tests/e2e/http-surface.spec.ts.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let member: Member;
let author: Member;

beforeAll(async () => {
  member = await createMember();
  author = await createMember();
});

// M1 and L1(b) of the security review: browsers strip tabs and newlines (so `/\t/evil.example`
// becomes `//evil.example`), Node refuses CR/LF in a Location header.
const HOSTILE = [
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/x\r\nSet-Cookie: a=b",
  "/\u000b/evil.example",
  "/\u3000/evil.example",
  "/\\evil.example",
  "//evil.example",
  "/%09/evil.example",
  "https://evil.example",
  "javascript:alert(1)",
];

describe("redirect targets a client supplies stay on the site", () => {
  it.each(HOSTILE)("sign-in form with redirectTo %j lands on /", async (redirectTo) => {
    const res = await call(
      authPage.action,
      makeRequest("/auth", { form: { intent: "login", username: member.username, password: member.password, redirectTo } }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
  });

  it.each(HOSTILE)("/auth?redirectTo=%j sends a signed-in member home, and offers nothing to a visitor", async (redirectTo) => {
    const path = `/auth?redirectTo=${encodeURIComponent(redirectTo)}`;
    const signedIn = await call(authPage.loader, makeRequest(path, { cookie: member.cookie }));
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/");
    const visitor = await call(authPage.loader, makeRequest(path));
    expect((await visitor.json()).redirectTo).toBe("");
  });

  it("a post card's like goes back to the post, not to a hostile redirectTo", async () => {
    const post = await createPost({ id: author.id }, { title: "Ridge sit", content: "Cold front.", type: "article", tags: [] });
    const res = await call(
      postPage.action,
      makeRequest(`/post/${post.id}`, {
        form: { intent: "like", redirectTo: "/\t/evil.example" },
        cookie: member.cookie,
        headers: { "Sec-Fetch-Mode": "navigate" },
      }),
      { id: String(post.id) },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/post/${post.id}`);
  });

  it("joining a club from a card goes back to the club, not to a hostile redirectTo", async () => {
    const clubId = await makeClub(author.id);
    const res = await call(
      clubPage.action,
      makeRequest(`/clubs/${clubId}`, { form: { intent: "join", redirectTo: "/\n/evil.example" }, cookie: member.cookie }),
      { id: String(clubId) },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/clubs/${clubId}`);
  });

  it("the avatar form's returnTo falls back to the profile", async () => {
    const fd = new FormData();
    fd.set("returnTo", "/\t/evil.example");
    const res = await call(
      profilePage.action,
      new Request(`http://localhost:3000/profile/${member.username}`, {
        method: "POST",
        body: fd,
        headers: { Origin: "http://localhost:3000", Cookie: member.cookie },
      }),
      { username: member.username },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/profile/${member.username}?edit=1`);
  });
});

describe("the JSON surface is strict", () => {
  const comment = (headers: Record<string, string>, body = JSON.stringify({ content: "Nice buck" })) =>
    new Request("http://localhost:3000/api/posts/1/comments", {
      method: "POST",
      body,
      headers: { Host: "localhost:3000", Origin: "http://localhost:3000", Cookie: member.cookie, ...headers },
    });
  let postId: number;
  beforeAll(async () => {
    postId = (
      await createPost({ id: author.id }, { title: "Comment here", content: "A long sit on the ridge.", type: "article", tags: [] })
    ).id;
  });
  const send = (request: Request) => call(commentsApi.action, request, { id: String(postId) });

  it.each([
    "text/plain; application/json",
    "text/plain;charset=application/json",
    "application/x-www-form-urlencoded; x=application/json",
    "multipart/form-data; boundary=application/json",
  ])("answers 415 to Content-Type %j and stores nothing", async (type) => {
    const res = await send(comment({ "Content-Type": type }));
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: "Send the body as application/json" });
    expect(await listComments(null, postId)).toHaveLength(0);
  });

  it("takes application/json, with or without a UTF-8 charset", async () => {
    expect((await send(comment({ "Content-Type": "application/json" }))).status).toBe(201);
    expect((await send(comment({ "Content-Type": "application/json; charset=utf-8" }))).status).toBe(201);
  });

  it("refuses an Origin with the right host but another scheme or port (403), and trusts no X-Forwarded-Host", async () => {
    const before = (await listComments(null, postId)).length;
    const origins: Record<string, string>[] = [
      { Origin: "https://localhost:3000" },
      { Origin: "http://localhost:3001" },
      { Origin: "https://localhost:3000", "X-Forwarded-Proto": "https" },
      { Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" },
    ];
    for (const headers of origins) {
      const res = await send(comment({ "Content-Type": "application/json", ...headers }));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "Cross-site request refused" });
    }
    expect(await listComments(null, postId)).toHaveLength(before);
  });

  it("answers an unknown /api path with a JSON 404, for every method", async () => {
    const splat = await import("~/routes/api.$");
    for (const method of ["GET", "POST", "PUT", "DELETE"]) {
      const request = makeRequest("/api/no/such/thing", { method, cookie: member.cookie });
      const res = await call(method === "GET" ? splat.loader : splat.action, request, { "*": "no/such/thing" });
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ error: "No such API call" });
    }
  });
});
