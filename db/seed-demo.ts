/**
 * Demo content for a newcomer (SEED_DEMO=1): a handful of members, posts of all four kinds,
 * comments, likes, follows, a public and a private club. Only fills an empty database.
 * The clubs' pictures are small WebP files in public/demo/ (made by db/demo-images.ts), served as
 * they are, so the list shows two different banners rather than two letters (issue 14, beyond SPEC #18).
 * Every demo member's password is "whitetail".
 * Some posts carry a field report (CONTRACT.md §14), seen in the last days before now, so a
 * newcomer's /pulse lists a few counties over its floor (3 reporters) and leaves a couple under it.
 */
import { sql } from "drizzle-orm";
import { checkFieldReport } from "../app/models/places/field-report.server";
import type { FieldReportKind, RutPhase } from "../app/schemas/field-report-options";
import { getCounty } from "../app/utils/counties/counties.server";
import type { DB } from "../app/utils/db.server";
import { localDate } from "../app/utils/hunt-day";
import { hashPassword } from "../app/utils/password.server";
import { tagKey } from "../app/utils/tags";
import * as schema from "./schema";

/** The transaction runner of the database the demo goes into (app/utils/db.server.ts `writeTransaction`). */
type Transaction = <T>(work: (tx: DB) => Promise<T>) => Promise<T>;
/** The id of the row an insert returned. */
const insertedId = async (rows: Promise<{ id: number }[]>) => (await rows)[0].id;

export const DEMO_PASSWORD = "whitetail";

const MEMBERS = [
  {
    username: "ridgerunner",
    displayName: "Jake Holloway",
    location: "Buffalo County, WI",
    bio: "Public-land bowhunter. 14 seasons in the same creek bottom and still learning.",
  },
  {
    username: "doe_talker",
    displayName: "Maggie Rourke",
    location: "Pike County, IL",
    bio: "Food plots, trail cams and too much coffee before dawn.",
  },
  {
    username: "oldbuck_ohio",
    displayName: "Walt Pruitt",
    location: "Coshocton, OH",
    bio: "Rifle hunter since '79. I tell stories; some of them are true.",
  },
  {
    username: "scrapeline",
    displayName: "Dani Ortiz",
    location: "Brazos Valley, TX",
    bio: "Habitat work and deer behaviour nerd. Host of the Scrape Line podcast.",
  },
  { username: "northwoods", displayName: "Erik Lindqvist", location: "Itasca County, MN", bio: "Big woods, long sits, cold fingers." },
];

const DAY = 86_400_000;

/**
 * A post's field report: seen on the post's day (or `daysBefore` it), on the county's calendar. With
 * the post at most 5 days old (and a few hours), that day is in the pulse's 7-day window; older ones
 * count only in a longer window.
 */
type DemoReport = { kind: FieldReportKind; county: string; daysBefore?: number; rutPhase?: RutPhase; bucks?: number; does?: number };

/** Buffalo WI, Pike IL, Coshocton OH and Itasca MN have 3 reporters this week; Brazos TX 2 (3 in the month), Trempealeau WI 1. */
const COUNTY = { buffalo: "55011", pike: "17149", coshocton: "39031", itasca: "27061", brazos: "48041", trempealeau: "55121" } as const;

const POSTS: Array<{
  author: number;
  type: schema.PostType;
  title: string;
  content: string;
  tags: string[];
  mediaUrl?: string;
  daysAgo: number;
  club?: "public" | "private";
  report?: DemoReport;
}> = [
  {
    author: 0,
    type: "article",
    title: "Reading rub lines in the early pre-rut",
    content:
      "Rubs in late October tell you more about travel than any trail camera. Look for lines of fresh rubs on the downwind side of bedding cover, facing the direction the buck was walking.\n\nI hang a set 40 yards off the line and hunt it only on a north-west wind. Three seasons, two shooters.",
    tags: ["bow hunting", "scouting tips", "rut"],
    daysAgo: 1,
    report: { kind: "rut_sign", county: COUNTY.buffalo, rutPhase: "seeking" },
  },
  {
    author: 1,
    type: "opinion",
    title: "Clover beats brassicas for most small plots",
    content:
      "Everyone plants turnips because the deer hammer them in December. But on a half-acre plot, perennial clover feeds deer from April to November and costs half as much over three years. Fight me in the comments.",
    tags: ["food plots", "habitat management"],
    daysAgo: 2,
  },
  {
    author: 2,
    type: "article",
    title: "The 8-pointer that waited out a thunderstorm",
    content:
      "Opening morning, 1994. The storm rolled in at first light and I almost climbed down. Forty minutes after the rain quit, every deer in the county was on its feet, and one of them walked right under my stand.\n\nMoral: the hour after a front is worth three days of sitting.",
    tags: ["hunting stories", "rifle hunting"],
    daysAgo: 3,
  },
  {
    author: 3,
    type: "podcast",
    title: "Scrape Line Ep. 42: Why mature bucks go nocturnal",
    content:
      "This week we dig into GPS-collar studies on daylight movement, hunting pressure and what actually makes a buck shift to night travel. Plus listener questions on mock scrapes.",
    tags: ["deer behavior", "podcast"],
    mediaUrl: "https://example.com/podcasts/scrape-line-42",
    daysAgo: 4,
  },
  {
    author: 4,
    type: "video",
    title: "Trail camera setup for big-woods bucks",
    content:
      "Where I hang cameras when there are no fields and no food plots: pinch points between bedding ridges, creek crossings and the edges of fresh cuts. Settings, height and angle explained.",
    tags: ["trail cameras", "scouting tips"],
    mediaUrl: "https://example.com/videos/big-woods-cameras",
    daysAgo: 5,
    report: { kind: "sighting", county: COUNTY.itasca, rutPhase: "post", bucks: 2, does: 5 },
  },
  {
    author: 0,
    type: "opinion",
    title: "Stop over-hunting your best stand",
    content:
      "If you sit your best stand every weekend in October, you are educating the deer you want most. Save it for the right wind in the first ten days of November.",
    tags: ["bow hunting", "strategy"],
    daysAgo: 6,
  },
  {
    author: 1,
    type: "article",
    title: "Frost seeding clover: a February job that pays in May",
    content:
      "Broadcast clover seed on frozen ground in late winter; the freeze-thaw cycle works it into the soil for you. Four to six pounds per acre of medium red clover, and mow weeds in June.",
    tags: ["food plots"],
    daysAgo: 9,
  },
  {
    author: 4,
    type: "article",
    title: "Club deer drive: how we run a safe one",
    content:
      "Blaze orange on everyone, assigned stands, no shots toward the drive line, and a captain with a radio. Our club's checklist for the late-season push through the cedar swamp.",
    tags: ["rifle hunting", "safety"],
    daysAgo: 2,
    club: "public",
    report: { kind: "harvest", county: COUNTY.itasca, daysBefore: 1, rutPhase: "post", bucks: 1, does: 0 },
  },
  {
    author: 3,
    type: "opinion",
    title: "Lease notes: the back forty plan for next season",
    content:
      "Members only: proposal to rest the back forty until November 1st and move the ladder stand to the creek crossing. Vote in the comments.",
    tags: ["habitat management"],
    daysAgo: 1,
    club: "private",
  },
  // Field reports: short posts from the stand, in the members' counties and the ones they travel to.
  {
    author: 1,
    type: "article",
    title: "Opening weekend: my first bow buck on the lease",
    content: "Came in behind a doe at 7:40, quartering away at 22 yards. Short blood trail into the cedars. Still shaking.",
    tags: ["bow hunting", "field report"],
    daysAgo: 0,
    report: { kind: "harvest", county: COUNTY.pike, rutPhase: "chasing", bucks: 1, does: 2 },
  },
  {
    author: 3,
    type: "article",
    title: "Does everywhere, one buck dogging them",
    content: "Six does crossed the bean stubble at last light with a young eight hot on their heels. The chase is on down here.",
    tags: ["field report", "rut"],
    daysAgo: 2,
    report: { kind: "sighting", county: COUNTY.pike, rutPhase: "chasing", bucks: 1, does: 6 },
  },
  {
    author: 0,
    type: "article",
    title: "Scrapes gone quiet along the creek",
    content:
      "Checked the scrape line I hunt every year: not a fresh one in days. Either they're locked down or I'm hunting the wrong creek.",
    tags: ["field report", "rut", "scouting tips"],
    daysAgo: 3,
    report: { kind: "rut_sign", county: COUNTY.pike, daysBefore: 1, rutPhase: "lockdown" },
  },
  {
    author: 1,
    type: "article",
    title: "Two bucks cruising the clover at first light",
    content: "Visiting family up north. Two bucks worked the edge of the clover plot nose-down, ignoring three does feeding in the middle.",
    tags: ["field report", "food plots"],
    daysAgo: 3,
    report: { kind: "sighting", county: COUNTY.buffalo, rutPhase: "chasing", bucks: 2, does: 3 },
  },
  {
    author: 4,
    type: "article",
    title: "Fresh rubs on the bluff trail",
    content: "A dozen new rubs on cedars along the bluff since last weekend, two of them on trees as thick as my leg.",
    tags: ["field report", "rut"],
    daysAgo: 4,
    report: { kind: "rut_sign", county: COUNTY.buffalo, rutPhase: "seeking" },
  },
  {
    author: 2,
    type: "article",
    title: "Tagged out on the ridge above the river",
    content: "Nine-pointer at 60 yards with the .270, 10 a.m., trailing a lone doe. The old farm still has them.",
    tags: ["field report", "rifle hunting"],
    daysAgo: 1,
    report: { kind: "harvest", county: COUNTY.coshocton, rutPhase: "lockdown", bucks: 1 },
  },
  {
    author: 0,
    type: "article",
    title: "Quiet sit in Ohio hill country",
    content: "Hunting with Walt this week. Four does at dawn, no bucks. Beautiful country, steep ridges.",
    tags: ["field report"],
    daysAgo: 4,
    report: { kind: "sighting", county: COUNTY.coshocton, bucks: 0, does: 4 },
  },
  {
    author: 3,
    type: "article",
    title: "Scrape under a licking branch, hit overnight",
    content: "Found a fresh scrape with a broken licking branch above it on the edge of an old orchard. Camera's up.",
    tags: ["field report", "rut", "trail cameras"],
    daysAgo: 5,
    report: { kind: "rut_sign", county: COUNTY.coshocton, rutPhase: "seeking" },
  },
  {
    author: 1,
    type: "article",
    title: "Early scouting trip to Ohio",
    content: "Walked the public ground before the season. Lots of acorns, a few old rubs, deer on the move in the evening.",
    tags: ["field report", "scouting tips"],
    daysAgo: 20,
    report: { kind: "sighting", county: COUNTY.coshocton, rutPhase: "pre", bucks: 1, does: 3 },
  },
  {
    author: 2,
    type: "article",
    title: "Big woods deer camp, day three",
    content: "Snow overnight. One spike and two does crossed the logging road; the bucks seem to be resting up.",
    tags: ["field report", "deer camp"],
    daysAgo: 3,
    report: { kind: "sighting", county: COUNTY.itasca, rutPhase: "post", bucks: 1, does: 2 },
  },
  {
    author: 1,
    type: "article",
    title: "Tracks in the new snow",
    content: "A big track following two smaller ones through the popple cut. Someone is still chasing up here.",
    tags: ["field report", "rut"],
    daysAgo: 4,
    report: { kind: "rut_sign", county: COUNTY.itasca, rutPhase: "chasing" },
  },
  {
    author: 3,
    type: "article",
    title: "Texas bucks are just getting started",
    content: "Feeder camera shows bucks still in bachelor groups. Our rut is weeks away, but they are starting to spar.",
    tags: ["field report", "trail cameras"],
    daysAgo: 1,
    report: { kind: "sighting", county: COUNTY.brazos, rutPhase: "pre", bucks: 4, does: 7 },
  },
  {
    author: 2,
    type: "article",
    title: "First rubs of the year in the river bottom",
    content: "Visiting my brother in Texas. First few rubs on the mesquite along the river bottom.",
    tags: ["field report", "rut"],
    daysAgo: 2,
    report: { kind: "rut_sign", county: COUNTY.brazos, rutPhase: "pre" },
  },
  {
    author: 4,
    type: "article",
    title: "Bow season down south",
    content: "Escaped the cold for a week. Deer in the post oaks every evening, nothing worth drawing on.",
    tags: ["field report", "bow hunting"],
    daysAgo: 16,
    report: { kind: "sighting", county: COUNTY.brazos, bucks: 1, does: 5 },
  },
  {
    author: 0,
    type: "article",
    title: "Doe for the freezer",
    content: "Filled an antlerless tag on a friend's farm across the river. Good eating for the winter.",
    tags: ["field report"],
    daysAgo: 2,
    report: { kind: "harvest", county: COUNTY.trempealeau, daysBefore: 1, bucks: 0, does: 1 },
  },
];

const COMMENTS: Array<[post: number, author: number, text: string]> = [
  [0, 2, "Same thing here in Ohio. The downwind side is everything."],
  [0, 3, "Do you ever find the rub lines shift once the scrapes open up?"],
  [1, 0, "Clover in the spring, brassicas in the fall. Why not both?"],
  [1, 4, "Up north, brassicas are the only thing green in December. Depends where you are."],
  [2, 1, "Best story I've read all week."],
  [3, 4, "Great episode. The collar data surprised me."],
];

export async function seedDemoIfEmpty(db: DB, transaction: Transaction): Promise<boolean> {
  const [existing] = await db.select({ n: sql<number>`count(*)` }).from(schema.users);
  if (Number(existing?.n ?? 0) > 0) return false;

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const now = Date.now();

  await transaction(async (tx) => {
    const userIds: number[] = [];
    for (const [i, m] of MEMBERS.entries()) {
      userIds.push(
        await insertedId(
          tx
            .insert(schema.users)
            .values({ ...m, email: `${m.username}@example.com`, passwordHash, createdAt: new Date(now - (400 - i * 30) * DAY) })
            .returning({ id: schema.users.id }),
        ),
      );
    }

    const publicClub = await insertedId(
      tx
        .insert(schema.clubs)
        .values({
          name: "Big Woods Whitetail Club",
          description: "Hunters of the northern big woods. Scouting reports, drive plans and camp stories. Everyone welcome.",
          location: "Northern Minnesota",
          imageUrl: "/demo/big-woods.webp",
          isPrivate: false,
          memberLimit: null,
          tags: ["big woods", "rifle", "deer camp"],
          rules: "Be respectful.\nNo sharing exact stand locations.\nBlaze orange on every drive.",
          creatorId: userIds[4],
          createdAt: new Date(now - 90 * DAY),
        })
        .returning({ id: schema.clubs.id }),
    );
    const privateClub = await insertedId(
      tx
        .insert(schema.clubs)
        .values({
          name: "Creek Bottom Lease",
          description: "The members of the Creek Bottom lease in Pike County: plans, work days and harvest logs.",
          location: "Pike County, IL",
          imageUrl: "/demo/creek-bottom.webp",
          isPrivate: true,
          memberLimit: 12,
          tags: ["lease", "bow hunting"],
          rules: "Members and their guests only.\nLog every harvest.",
          creatorId: userIds[3],
          createdAt: new Date(now - 60 * DAY),
        })
        .returning({ id: schema.clubs.id }),
    );

    const memberships: Array<[club: number, user: number, role: schema.ClubRole]> = [
      [publicClub, userIds[4], "owner"],
      [publicClub, userIds[2], "admin"],
      [publicClub, userIds[0], "member"],
      [privateClub, userIds[3], "owner"],
      [privateClub, userIds[1], "member"],
    ];
    for (const [clubId, userId, role] of memberships) {
      await tx.insert(schema.clubMembers).values({ clubId, userId, role, joinedAt: new Date(now - 30 * DAY) });
    }
    await tx
      .update(schema.clubs)
      .set({ memberCount: 3 })
      .where(sql`${schema.clubs.id} = ${publicClub}`);
    await tx
      .update(schema.clubs)
      .set({ memberCount: 2 })
      .where(sql`${schema.clubs.id} = ${privateClub}`);
    await tx.insert(schema.joinRequests).values({
      clubId: privateClub,
      userId: userIds[0],
      message: "I hunt the next farm over and would love to help with work days.",
      status: "pending",
    });

    const postIds: number[] = [];
    for (const p of POSTS) {
      const createdAt = new Date(now - p.daysAgo * DAY - p.author * 3_600_000);
      const id = await insertedId(
        tx
          .insert(schema.posts)
          .values({
            authorId: userIds[p.author],
            type: p.type,
            title: p.title,
            content: p.content,
            tags: p.tags,
            mediaUrl: p.mediaUrl ?? null,
            clubId: p.club === "public" ? publicClub : p.club === "private" ? privateClub : null,
            createdAt,
          })
          .returning({ id: schema.posts.id }),
      );
      if (p.report) {
        const { daysBefore = 0, ...report } = p.report;
        const observedOn = localDate(createdAt.getTime() - daysBefore * DAY, getCounty(report.county)!.timeZone);
        // Held to the contract's rules as a member's report is: a county the list knows, a day not in its future.
        const field = checkFieldReport({ ...report, observedOn }, now);
        await tx.insert(schema.fieldReports).values({ postId: id, authorId: userIds[p.author], ...field, createdAt });
      }
      for (const tag of p.tags) {
        await tx
          .insert(schema.postTags)
          .values({ postId: id, key: tagKey(tag) })
          .onConflictDoNothing();
      }
      await tx
        .update(schema.users)
        .set({ postsCount: sql`${schema.users.postsCount} + 1` })
        .where(sql`${schema.users.id} = ${userIds[p.author]}`);
      postIds.push(id);
    }

    // What members would have heard of (issue 26): written as told (sentAt), the last few days' unread.
    const notifications: (typeof schema.notifications.$inferInsert)[] = [];
    const heard = (row: typeof schema.notifications.$inferInsert & { createdAt: Date }) =>
      notifications.push({ ...row, sentAt: row.createdAt, readAt: now - row.createdAt.getTime() > 3 * DAY ? row.createdAt : null });
    heard({ userId: userIds[3], kind: "join_request", actorId: userIds[0], clubId: privateClub, createdAt: new Date(now - DAY) });

    for (const [i, [post, author, content]] of COMMENTS.entries()) {
      const createdAt = new Date(now - (POSTS[post].daysAgo * DAY) / 2 + i * 60_000);
      const commentId = await insertedId(
        tx
          .insert(schema.comments)
          .values({ postId: postIds[post], authorId: userIds[author], content, createdAt })
          .returning({ id: schema.comments.id }),
      );
      if (author !== POSTS[post].author) {
        heard({
          userId: userIds[POSTS[post].author],
          kind: "comment",
          actorId: userIds[author],
          postId: postIds[post],
          commentId,
          createdAt,
        });
      }
      await tx
        .update(schema.posts)
        .set({ commentsCount: sql`${schema.posts.commentsCount} + 1` })
        .where(sql`${schema.posts.id} = ${postIds[post]}`);
    }

    // Likes: the older and better posts collect more. Shares are rows too, so every counter equals
    // its rows (the counter check in db/seed.test.ts).
    for (const [i, postId] of postIds.entries()) {
      const likers = userIds.filter((_, u) => (u + i) % 3 !== 0 && u !== POSTS[i].author).slice(0, 5 - (i % 4));
      for (const userId of likers) await tx.insert(schema.likes).values({ postId, userId });
      const sharers = likers.slice(0, i % 3);
      for (const userId of sharers) await tx.insert(schema.shares).values({ postId, userId });
      await tx
        .update(schema.posts)
        .set({ likesCount: likers.length, sharesCount: sharers.length })
        .where(sql`${schema.posts.id} = ${postId}`);
      if (likers.length > 0) {
        const createdAt = new Date(now - (POSTS[i].daysAgo * DAY) / 3);
        heard({ userId: userIds[POSTS[i].author], kind: "like", actorId: likers.at(-1)!, actorCount: likers.length, postId, createdAt });
      }
    }

    const followPairs: Array<[number, number]> = [
      [0, 1],
      [0, 2],
      [1, 0],
      [2, 0],
      [3, 0],
      [3, 1],
      [4, 3],
      [1, 3],
    ];
    for (const [a, b] of followPairs) {
      await tx.insert(schema.follows).values({ followerId: userIds[a], followeeId: userIds[b] });
      await tx
        .update(schema.users)
        .set({ followingCount: sql`${schema.users.followingCount} + 1` })
        .where(sql`${schema.users.id} = ${userIds[a]}`);
      await tx
        .update(schema.users)
        .set({ followersCount: sql`${schema.users.followersCount} + 1` })
        .where(sql`${schema.users.id} = ${userIds[b]}`);
      heard({ userId: userIds[b], kind: "follow", actorId: userIds[a], createdAt: new Date(now - (a + b + 1) * DAY) });
    }
    notifications.sort((x, y) => x.createdAt!.getTime() - y.createdAt!.getTime());
    for (const row of notifications) await tx.insert(schema.notifications).values(row);
  });
  return true;
}
