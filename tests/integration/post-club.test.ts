import { describe, expect, it } from "vitest";
import { createPost } from "~/models/posts/post.server";
import * as apiPosts from "~/routes/api.posts";
import * as apiClubPosts from "~/routes/api.clubs.$id.posts";
import * as apiPost from "~/routes/api.posts.$id";
import * as postPage from "~/routes/post.$id/route";
import * as profilePage from "~/routes/profile.$username/route";
import { call, createMember, makeRequest } from "../fixtures/members";
import { makeClub } from "../fixtures/posts";

/**
 * Beyond SPEC #6: a club post shown outside its club names its club. Every read path maps rows to
 * Posts through post-view.server.ts, so each answer carries `club: {id, name}` for a club post and
 * `club: null` for any other.
 */

type Json = Record<string, any>;

describe("a post's club", () => {
  it("is {id, name} for a club post and null otherwise, on every read path", async () => {
    const author = await createMember();
    const clubId = await makeClub(author.id, { name: "Big Woods Camp" });
    const inClub = await createPost({ id: author.id }, { title: "Camp opener", content: "Who brings the stove?", type: "article", clubId });
    const plain = await createPost({ id: author.id }, { title: "Scrape line", content: "Fresh scrapes on the ridge.", type: "article" });
    const club = { id: clubId, name: "Big Woods Camp" };
    const clubOf = (posts: Json[], id: number) => posts.find((p) => p.id === id)?.club;

    const profile = (await (
      await call(profilePage.loader, makeRequest(`/profile/${author.username}`), { username: author.username })
    ).json()) as Json;
    expect(clubOf(profile.posts, inClub.id)).toEqual(club);
    expect(clubOf(profile.posts, plain.id)).toBeNull();

    const page = (await (await call(postPage.loader, makeRequest(`/post/${inClub.id}`), { id: String(inClub.id) })).json()) as Json;
    expect(page.post.club).toEqual(club);
    const api = (await (await call(apiPost.loader, makeRequest(`/api/posts/${plain.id}`), { id: String(plain.id) })).json()) as Json;
    expect(api).toHaveProperty("club", null);

    const feed = (await (await call(apiPosts.loader, makeRequest("/api/posts?limit=50"))).json()) as Json[];
    expect(clubOf(feed, plain.id)).toBeNull();
    const clubPosts = (await (
      await call(apiClubPosts.loader, makeRequest(`/api/clubs/${clubId}/posts`, { cookie: author.cookie }), { id: String(clubId) })
    ).json()) as Json[];
    expect(clubOf(clubPosts, inClub.id)).toEqual(club);
  });
});
