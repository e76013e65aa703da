/**
 * A bounded timing of the list queries at scale (docs/decisions/0042-…): p50 of the feed for a word
 * search and a #hashtag search, and of the post page's comments for the most-discussed post, in
 * process (no HTTP), 41 runs each after 5 warm-ups.
 *
 *   npx tsx db/seed.ts --users 2000 --posts 100000   (with DATABASE_PATH=FILE, as the bench seeds)
 *   npx tsx scripts/list-timings.ts FILE
 */
async function main() {
  process.env.DATABASE_PATH = process.argv[2] ?? process.env.DATABASE_PATH;
  const { listFeed } = await import("../app/models/feeds/feed.server");
  const feed = await import("../app/models/feeds/feed-hashtag.server").catch(() => ({}));
  const { planSearch } = await import("../app/models/feeds/feed-search.server");
  const comments = await import("../app/models/posts/comment.server");
  const { sqlite } = await import("../app/utils/db.server");

  const p50 = async (run: () => unknown) => {
    for (let i = 0; i < 5; i++) await run();
    const times: number[] = [];
    for (let i = 0; i < 41; i++) {
      const start = performance.now();
      await run();
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b)[20]!;
  };
  for (const sortBy of ["recent", "popular"] as const) {
    for (const search of ["deer", "#BowHunting", "#rut", "cedar swamp"]) {
      const ms = await p50(() => listFeed(null, { search, sortBy }));
      // A #hashtag newest first reads its halves page by page (app/models/feeds/feed-hashtag.server.ts).
      const mode =
        search.startsWith("#") && sortBy === "recent" && "hashtagPage" in feed ? "halves" : ((await planSearch(search))?.mode ?? "");
      console.log(`feed search ${JSON.stringify(search).padEnd(14)} ${sortBy.padEnd(8)} ${mode.padEnd(12)} p50 ${ms.toFixed(2)} ms`);
    }
  }
  const { id } = sqlite.prepare(`SELECT id FROM posts ORDER BY comments_count DESC LIMIT 1`).get() as { id: number };
  const all = await p50(() => comments.listComments(null, id));
  console.log(`comments of post ${id} (most discussed), all of them: p50 ${all.toFixed(2)} ms`);
  if ("listCommentPage" in comments) {
    const page = await p50(() => comments.listCommentPage(null, id));
    console.log(`comments of post ${id} (most discussed), first page: p50 ${page.toFixed(2)} ms`);
  }
}

void main();
