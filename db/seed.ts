/**
 * Synthetic data at benchmark scale (CONTRACT.md §1):
 *
 *   npm run seed -- --users 2000 --posts 100000 [--seed 42]
 *
 * Fills the empty database at DATABASE_PATH with members, follows, clubs with members and pending
 * requests, posts of all four kinds over the past year (5% of them in clubs), tags, likes, comments
 * and shares in heavy-tailed proportions: most posts get a few likes, a few get hundreds. Every
 * stored counter (posts, followers, following, likes, comments, shares, club members) equals the
 * rows it counts. Raw prepared statements in one transaction; the FTS index is filled by the
 * triggers. Every seeded member's password is "whitetail". Deterministic for a given --seed.
 */
import { hashPassword } from "../app/utils/password.server";
import { databaseEngine, sqlite } from "../app/utils/db.server";
import { tagKey } from "../app/utils/tags";
import { countiesOf, STATES } from "../app/utils/counties/counties.server";

type Args = { users: number; posts: number; seed: number };

function parseArgs(argv: string[]): Args {
  const args: Args = { users: 1000, posts: 10_000, seed: 42 };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!.replace(/^--/, "");
    const value = Number(argv[i + 1]);
    if (name in args && Number.isInteger(value) && value >= 0) {
      args[name as keyof Args] = value;
      i += 1;
    } else if (argv[i] !== "--") {
      throw new Error(`Unknown or bad argument "${argv[i]}". Usage: npm run seed -- --users U --posts P [--seed N]`);
    }
  }
  if (args.users < 2) throw new Error("--users must be at least 2");
  return args;
}

/** mulberry32: a small, fast, seedable PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  "Jake",
  "Maggie",
  "Walt",
  "Dani",
  "Erik",
  "Tom",
  "Sara",
  "Luke",
  "Anna",
  "Cody",
  "Beth",
  "Hank",
  "Rosa",
  "Clay",
  "June",
  "Dale",
  "Nora",
  "Wade",
  "Tess",
  "Gus",
];
const LAST = [
  "Holloway",
  "Rourke",
  "Pruitt",
  "Ortiz",
  "Lindqvist",
  "Baker",
  "Nguyen",
  "Carter",
  "Meyer",
  "Olsen",
  "Keller",
  "Reyes",
  "Fischer",
  "Grant",
  "Shaw",
];
const PLACES = [
  "Buffalo County, WI",
  "Pike County, IL",
  "Coshocton, OH",
  "Brazos Valley, TX",
  "Itasca County, MN",
  "Licking County, OH",
  "Adams County, IL",
  "Sumner County, KS",
  "Bath County, KY",
  null,
];
const TAGS = [
  "bow hunting",
  "rifle hunting",
  "scouting tips",
  "trail cameras",
  "food plots",
  "habitat management",
  "deer behavior",
  "hunting stories",
  "rut",
  "pre-rut",
  "late season",
  "public land",
  "tree stands",
  "ground blinds",
  "scent control",
  "calling",
  "rattling",
  "shed hunting",
  "processing",
  "venison recipes",
  "gear review",
  "optics",
  "muzzleloader",
  "crossbow",
  "tracking",
  "wind",
  "mock scrapes",
  "rub lines",
  "bedding areas",
  "cover crops",
  "clover",
  "brassicas",
  "camp life",
  "youth hunt",
  "first buck",
  "doe management",
  "cwd",
  "conservation",
  "land access",
  "mapping",
];
const TOPICS = [
  "rub lines",
  "scrapes",
  "bedding cover",
  "a creek crossing",
  "the south ridge",
  "a pinch point",
  "clover plots",
  "a cedar swamp",
  "the back forty",
  "an oak flat",
  "a standing corn field",
  "the fence line",
];
const WORDS =
  "deer buck doe whitetail stand wind scent trail camera acorn oak ridge creek bottom field plot clover turnip brassica frost morning evening dawn dusk sit hunt hunter rut scrape rub track blood shot arrow rifle bow crossbow optics binoculars grunt rattle call season opener weekend cold front rain snow north west east south thicket cedar pine swamp ravine saddle funnel bench draw hollow timber cut corn bean hay fence gate road truck camp coffee thermos harness climber ladder blind drag sled knife cape mount taxidermy antler shed velvet tine beam spread brow tine drop tine nontypical typical mainframe sticker kicker spike yearling fawn button velvet acorns persimmon honeysuckle greenbriar sumac goldenrod switchgrass timothy alfalfa chicory radish kale sorghum milo buckwheat oats rye wheat triticale".split(
    " ",
  );
const TITLES = [
  (t: string) => `Reading ${t} in the early season`,
  (t: string) => `What I learned hunting ${t}`,
  (t: string) => `Why ${t} beats everything in November`,
  (t: string) => `A cold front, ${t} and one patient buck`,
  (t: string) => `Scouting ${t} from the truck`,
  (t: string) => `Trail camera notes: ${t}`,
  (t: string) => `Hanging a stand near ${t}`,
  (t: string) => `Do mature bucks avoid ${t}?`,
];
const TYPES = ["article", "opinion", "video", "podcast"] as const;
const COMMENTS = [
  "Great read, thanks for sharing.",
  "Same thing happens on our lease.",
  "What wind do you hunt that stand on?",
  "That's a heck of a buck.",
  "I disagree, but good points.",
  "Saving this for next season.",
  "How far off the trail did you hang the camera?",
  "The hour after a front is magic.",
  "Clover all the way.",
  "Congrats on the harvest!",
];

const DAY = 86_400_000;

async function main() {
  const { users: U, posts: P, seed } = parseArgs(process.argv.slice(2));
  // Raw better-sqlite3 statements and pragmas: the seed writes the SQLite file; PostgreSQL gets a copy of it.
  if (databaseEngine() === "postgres") {
    throw new Error(
      "npm run seed fills the SQLite file at DATABASE_PATH: unset DATABASE_URL, seed, then copy the file into PostgreSQL with npm run db:move -- --to postgres://…",
    );
  }
  const rand = prng(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(list: readonly T[]) => list[int(list.length)]!;
  /** Heavy-tailed count: mostly small, now and then large (Pareto-like). */
  const heavy = (exponent: number, scale: number, cap: number) => Math.min(cap, Math.floor(scale * (Math.pow(1 - rand(), -exponent) - 1)));
  /** A member index skewed towards the low ids: prolific, popular members. */
  const skewed = (n: number, power: number) => Math.min(n - 1, Math.floor(n * Math.pow(rand(), power)));
  /** k distinct indices in [0, n), none equal to `except`. */
  function distinct(k: number, n: number, except = -1): number[] {
    const out = new Set<number>();
    const max = except >= 0 && except < n ? n - 1 : n;
    k = Math.min(k, max);
    while (out.size < k) {
      const v = int(n);
      if (v !== except) out.add(v);
    }
    return [...out];
  }
  const sentence = (n: number) => {
    const words: string[] = [];
    // Zipf-like: the first words of the list are common, the last ones rare (as in real text).
    for (let i = 0; i < n; i++) words.push(WORDS[skewed(WORDS.length, 2.5)]!);
    return words.join(" ");
  };

  const existing = sqlite.prepare(`SELECT count(*) AS n FROM users`).get() as { n: number };
  if (existing.n > 0) {
    throw new Error(
      `${process.env.DATABASE_PATH ?? "./data/app.db"} already has members; seed an empty database (set DATABASE_PATH to a new file).`,
    );
  }

  const started = Date.now();
  const passwordHash = await hashPassword("whitetail");
  const now = Date.now();
  const yearAgo = now - 365 * DAY;

  // One bulk transaction: no WAL copy of every page, no fsyncs; back to WAL afterwards.
  sqlite.pragma("journal_mode = OFF");
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("cache_size = -200000");

  const insertUser = sqlite.prepare(
    `INSERT INTO users (id, username, display_name, email, password_hash, bio, location, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFollow = sqlite.prepare(`INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)`);
  const insertClub = sqlite.prepare(
    `INSERT INTO clubs (id, name, description, location, is_private, member_limit, tags, rules, creator_id, member_count, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMember = sqlite.prepare(`INSERT INTO club_members (club_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)`);
  const insertRequest = sqlite.prepare(
    `INSERT INTO join_requests (club_id, user_id, message, status, created_at) VALUES (?, ?, ?, 'pending', ?)`,
  );
  const insertPost = sqlite.prepare(
    `INSERT INTO posts (id, author_id, club_id, type, title, content, media_url, tags, likes_count, comments_count, shares_count, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTag = sqlite.prepare(`INSERT OR IGNORE INTO post_tags (post_id, key) VALUES (?, ?)`);
  const insertLike = sqlite.prepare(`INSERT INTO likes (post_id, user_id, created_at) VALUES (?, ?, ?)`);
  const insertComment = sqlite.prepare(`INSERT INTO comments (post_id, author_id, content, created_at) VALUES (?, ?, ?, ?)`);
  const insertShare = sqlite.prepare(`INSERT INTO shares (post_id, user_id, created_at) VALUES (?, ?, ?)`);
  const insertFieldReport = sqlite.prepare(
    `INSERT INTO field_reports (post_id, author_id, kind, county, observed_on, rut_phase, bucks, does, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Field reports (issue 45): a third of the last 30 days' posts, in 200 counties, a few of them busy;
  // from a generator of their own, so every other row is what it was before they were added.
  const fieldRand = prng(seed + 45);
  const REPORT_COUNTIES = STATES.flatMap((state) => countiesOf(state.postal).map((county) => county.fips))
    .filter((_, i) => i % 16 === 0)
    .slice(0, 200);
  const FIELD_KINDS = ["sighting", "sighting", "rut_sign", "harvest"] as const;
  const PHASES = ["pre", "seeking", "chasing", "lockdown", "post", null] as const;
  const setUserCounts = sqlite.prepare(`UPDATE users SET posts_count = ?, followers_count = ?, following_count = ? WHERE id = ?`);

  const postsCount = new Array<number>(U).fill(0);
  const followers = new Array<number>(U).fill(0);
  const following = new Array<number>(U).fill(0);
  const totals = { follows: 0, clubs: 0, members: 0, likes: 0, comments: 0, shares: 0, tags: 0, fieldReports: 0 };

  sqlite.transaction(() => {
    // Members (ids 1..U).
    for (let i = 0; i < U; i++) {
      const first = pick(FIRST);
      const last = pick(LAST);
      const username = `${first.toLowerCase()}_${i + 1}`;
      insertUser.run(
        i + 1,
        username,
        `${first} ${last}`,
        `${username}@seed.example`,
        passwordHash,
        rand() < 0.6 ? `Hunting ${pick(TOPICS)} since ${1975 + int(45)}.` : null,
        pick(PLACES),
        yearAgo - 30 * DAY + i * 1000,
      );
    }

    // Follows: a heavy-tailed number each, towards popular members.
    for (let i = 0; i < U; i++) {
      const k = Math.min(U - 1, 1 + heavy(0.7, 4, 300));
      const targets = new Set<number>();
      for (let tries = 0; targets.size < k && tries < k * 4; tries++) {
        const t = skewed(U, 2);
        if (t !== i) targets.add(t);
      }
      for (const t of targets) {
        insertFollow.run(i + 1, t + 1, yearAgo + int(365) * DAY);
        following[i]! += 1;
        followers[t]! += 1;
        totals.follows += 1;
      }
    }

    // Clubs with members (about one club per 40 members), 40% private.
    const clubCount = Math.max(2, Math.floor(U / 40));
    const clubMembers: number[][] = [];
    for (let c = 0; c < clubCount; c++) {
      const owner = int(U);
      const size = Math.min(U, 3 + heavy(0.9, 6, 150));
      const members = [owner, ...distinct(size - 1, U, owner)];
      const isPrivate = rand() < 0.4;
      const limit = rand() < 0.3 ? Math.min(1000, size + int(50)) : null;
      const createdAt = yearAgo - int(30) * DAY;
      insertClub.run(
        c + 1,
        `${pick(["Big Woods", "Creek Bottom", "Oak Ridge", "Cedar Swamp", "River Bend", "Prairie Edge"])} ${pick(["Whitetail Club", "Lease", "Hunting Camp", "Deer Club"])} ${c + 1}`,
        `Hunters of ${pick(PLACES) ?? "the Midwest"}: scouting reports, work days and camp stories.`,
        pick(PLACES),
        isPrivate ? 1 : 0,
        limit,
        JSON.stringify([pick(TAGS), pick(TAGS)].filter((t, i, a) => a.indexOf(t) === i)),
        rand() < 0.5 ? "Be respectful.\nNo sharing exact stand locations." : null,
        owner + 1,
        members.length,
        createdAt,
      );
      members.forEach((m, i) =>
        insertMember.run(c + 1, m + 1, i === 0 ? "owner" : i === 1 && rand() < 0.5 ? "admin" : "member", createdAt + i * 60_000),
      );
      if (isPrivate) {
        const memberSet = new Set(members);
        for (const r of distinct(int(4), U)) {
          if (!memberSet.has(r)) insertRequest.run(c + 1, r + 1, "I hunt nearby and would love to join.", now - int(20) * DAY);
        }
      }
      clubMembers.push(members);
      totals.clubs += 1;
      totals.members += members.length;
    }

    // Posts, oldest first, with their likes, comments and shares; counters written with the row.
    const span = now - yearAgo;
    for (let p = 0; p < P; p++) {
      const id = p + 1;
      const createdAt = yearAgo + Math.floor(((p + rand()) / Math.max(1, P)) * span);
      const inClub = rand() < 0.05;
      const club = inClub ? int(clubCount) : -1;
      const author = inClub ? pick(clubMembers[club]!) : skewed(U, 1.8);
      const type = TYPES[rand() < 0.55 ? 0 : rand() < 0.5 ? 1 : rand() < 0.6 ? 2 : 3]!;
      const topic = pick(TOPICS);
      const tags = distinct(int(5), TAGS.length).map((t) => TAGS[t]!);
      const age = (now - createdAt) / DAY;
      // Older posts had longer to collect likes; a few break out.
      const likers = distinct(heavy(0.75, 1 + Math.min(1, age / 60), U - 1), U, author);
      const commentCount = heavy(0.6, 1.5, 200);
      const sharers = distinct(heavy(0.5, 0.5, 50), U);
      const content = `${sentence(12 + int(20))} ${topic}. ${sentence(10 + int(40))}.\n\n${sentence(8 + int(30))}.`;
      insertPost.run(
        id,
        author + 1,
        inClub ? club + 1 : null,
        type,
        pick(TITLES)(topic),
        content.charAt(0).toUpperCase() + content.slice(1),
        type === "video" ? `https://example.com/videos/${id}` : type === "podcast" ? `https://example.com/podcasts/${id}` : null,
        tags.length ? JSON.stringify(tags) : null,
        likers.length,
        commentCount,
        sharers.length,
        createdAt,
      );
      postsCount[author]! += 1;
      for (const tag of tags) {
        insertTag.run(id, tagKey(tag));
        totals.tags += 1;
      }
      const later = () => Math.min(now, createdAt + int(3 * DAY));
      for (const u of likers) insertLike.run(id, u + 1, later());
      for (let c = 0; c < commentCount; c++) insertComment.run(id, int(U) + 1, pick(COMMENTS), createdAt + (c + 1) * 60_000);
      for (const u of sharers) insertShare.run(id, u + 1, later());
      if (age <= 30 && fieldRand() < 1 / 3) {
        const fr = (n: number) => Math.floor(fieldRand() * n);
        const seen = new Date(createdAt - fr(3) * DAY).toISOString().slice(0, 10);
        insertFieldReport.run(
          id,
          author + 1,
          FIELD_KINDS[fr(FIELD_KINDS.length)],
          REPORT_COUNTIES[Math.floor(REPORT_COUNTIES.length * Math.pow(fieldRand(), 1.5))],
          seen,
          PHASES[fr(PHASES.length)],
          fr(4),
          fr(7),
          createdAt,
        );
        totals.fieldReports += 1;
      }
      totals.likes += likers.length;
      totals.comments += commentCount;
      totals.shares += sharers.length;
    }

    for (let i = 0; i < U; i++) setUserCounts.run(postsCount[i], followers[i], following[i], i + 1);
  })();

  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("journal_mode = WAL");
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `Seeded ${U} members, ${P} posts, ${totals.likes} likes, ${totals.comments} comments, ${totals.shares} shares, ` +
      `${totals.follows} follows, ${totals.clubs} clubs with ${totals.members} members, ${totals.tags} tags, ${totals.fieldReports} field reports in ${seconds}s.`,
  );
}

main().catch((error) => {
  console.error(`Seed failed: ${(error as Error).message}`);
  process.exit(1);
});
