import { describe, expect, it } from "vitest";
import { createMember } from "#tests/fixtures/members";
import { createStaff } from "#tests/fixtures/moderation";
import { failure, postInput } from "#tests/fixtures/posts";
import { postVisibility } from "./access.server";
import { listFeed } from "~/models/feeds/feed.server";
import { removeContent } from "~/models/moderation/moderation-removal.server";
import { notify } from "~/models/notifications/notification.server";
import { createPost, getPost } from "~/models/posts/post.server";
import { visiblePostsCount } from "~/models/members/profile.server";
import { reportableTarget } from "~/models/moderation/report.server";

/**
 * "A hidden post is its author's alone" (access.server.ts visiblePostSql) is embedded in the feed, the
 * `#hashtag` page, the profile's count, notifications and the checks of a single post and of a
 * report: each must give every viewer the same answer as the rule itself.
 */
describe("a hidden post is its author's alone, in every place that shows posts", () => {
  it("the feed, the #hashtag page, the profile count, notifications, the post and the report form agree with postVisibility", async () => {
    const author = await createMember();
    const other = await createMember();
    const mentioner = await createMember();
    const moderator = await createStaff("moderator");
    const shown = await createPost(author, postInput({ title: "Shown #Rut", tags: ["rut"] }));
    const hidden = await createPost(author, postInput({ title: "Hidden #Rut", tags: ["rut"] }));
    await removeContent(moderator, { type: "post", id: hidden.id }, "Off topic");

    for (const viewer of [author, other, moderator, null]) {
      const mayRead = (id: number) => id === shown.id || viewer?.id === author.id;
      const expected = [hidden.id, shown.id].filter(mayRead).sort((a, b) => a - b);
      for (const id of [shown.id, hidden.id]) {
        expect((await postVisibility(viewer, id))?.visible).toBe(mayRead(id));
      }
      const ids = (page: { posts: { id: number }[] }) => page.posts.map((p) => p.id).sort((a, b) => a - b);
      expect(ids(await listFeed(viewer, { authorId: author.id }))).toEqual(expected);
      expect(ids(await listFeed(viewer, { search: "#Rut" }))).toEqual(expected);
      expect(await visiblePostsCount(viewer, author.id)).toBe(expected.length);
      // The staff who may restore it read it on its own page; nobody else but its author.
      if (mayRead(hidden.id) || viewer?.id === moderator.id) expect((await getPost(viewer, hidden.id)).id).toBe(hidden.id);
      else expect((await failure(() => getPost(viewer, hidden.id))).status).toBe(404);
      if (viewer && viewer.id !== author.id) {
        const told = await notify([viewer.id], { kind: "mention", actorId: mentioner.id, postId: hidden.id });
        expect(told).toBe(0);
        const report = await failure(() => reportableTarget(viewer, { targetType: "post", targetId: hidden.id }));
        expect(report.status).toBe(404);
      }
    }
  });
});
