import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "#db/schema";
import { createMember } from "#tests/fixtures/members";
import { failure } from "#tests/fixtures/posts";
import { MENTION_QUERY_MESSAGES, MENTION_SUGGESTIONS } from "~/schemas/mention";
import { databaseEngine, db, queryRows, writeTransaction } from "~/utils/db.server";
import { blockMember } from "./block.server";
import { followUser } from "./follow.server";
import { byUsernamePrefixQuery, MENTION_SIGN_IN, suggestMentions } from "./mention-suggestions.server";

/**
 * @mention suggestions (ux-3 U20, `GET /api/users?mention=`): username prefix or a display name's
 * word, without regard to case; never oneself, a suspended member or anyone across a block; at most
 * six; signed-in members only; the text checked. On SQLite and PostgreSQL alike.
 */

type Params = Parameters<typeof queryRows>[1];
let stems = 0;
/** A username start no other test here uses (letters only, so it is also a display name's word). */
const stem = () =>
  `q${"abcdefghij"[stems++]}${Math.random()
    .toString(36)
    .replace(/[^a-z]/g, "")
    .slice(0, 4)}`;

const names = (list: { username: string }[]) => list.map((m) => m.username);

describe("suggestMentions", () => {
  it("finds usernames by their start and display names by any word's start, in any case, with public fields only", async () => {
    const s = stem();
    const viewer = await createMember();
    const byUsername = await createMember({ username: `${s}_line`, displayName: "Walt Pruitt" });
    const byName = await createMember({ username: `other_${s}`.slice(0, 20), displayName: `Dani ${s.toUpperCase()}ortiz` });
    const notAWordStart = await createMember({ username: `zz${s}`, displayName: `Mid${s}dle Name` });

    const found = await suggestMentions({ id: viewer.id }, s.toUpperCase());
    expect(found).toEqual([
      { username: byUsername.username, displayName: "Walt Pruitt", avatar: null },
      { username: byName.username, displayName: byName.displayName, avatar: null },
    ]);
    expect(names(found)).not.toContain(notAWordStart.username);
    // The first word as well as a later one; a display name's word is found whatever the case.
    expect(names(await suggestMentions({ id: viewer.id }, "dani"))).toContain(byName.username);
    expect(names(await suggestMentions({ id: viewer.id }, `  ${s}_L `))).toEqual([byUsername.username]);
    // `_` is itself, not LIKE's any-character: "<s>_" finds <s>_line only, "<s>x" nothing.
    expect(names(await suggestMentions({ id: viewer.id }, `${s}x`))).toEqual([]);
    // Letters of any script are a display name's (no username holds them).
    const jose = await createMember({ username: `${s}jh`, displayName: "José Hernández" });
    expect(names(await suggestMentions({ id: viewer.id }, "Hernández"))).toContain(jose.username);
  });

  it("leaves out the member asking, suspended members and anyone either way across a block", async () => {
    const s = stem();
    const viewer = await createMember({ username: `${s}_me` });
    const open = await createMember({ username: `${s}_open` });
    const suspended = await createMember({ username: `${s}_susp` });
    const suspensionOver = await createMember({ username: `${s}_back` });
    const iBlocked = await createMember({ username: `${s}_iblk` });
    const blockedMe = await createMember({ username: `${s}_blkme` });
    const byName = await createMember({ displayName: `${s} Blocked` });
    const now = Date.now();
    await db
      .update(users)
      .set({ suspendedAt: new Date(now - 1000), suspendedUntil: new Date(now + 86_400_000), suspensionReason: "spam" })
      .where(eq(users.id, suspended.id));
    await db
      .update(users)
      .set({ suspendedAt: new Date(now - 3 * 86_400_000), suspendedUntil: new Date(now - 1000), suspensionReason: "over" })
      .where(eq(users.id, suspensionOver.id));
    await blockMember({ id: viewer.id }, iBlocked.username);
    await blockMember({ id: blockedMe.id }, viewer.username);
    await blockMember({ id: byName.id }, viewer.username);

    expect(names(await suggestMentions({ id: viewer.id }, s)).sort()).toEqual([suspensionOver.username, open.username].sort());
    // Another member sees them all but themself and the suspended one.
    const other = await createMember();
    expect(names(await suggestMentions({ id: other.id }, s)).sort()).toEqual(
      [viewer.username, open.username, suspensionOver.username, iBlocked.username, blockedMe.username, byName.username].sort(),
    );
    // A suspension without an end counts too.
    await db
      .update(users)
      .set({ suspendedAt: new Date(now), suspendedUntil: null })
      .where(eq(users.id, open.id));
    expect(names(await suggestMentions({ id: viewer.id }, s))).toEqual([suspensionOver.username]);
  });

  it("offers at most six: usernames in the index's order, and display names keep half the places when both fill them", async () => {
    const s = stem();
    const viewer = await createMember();
    const usernames: string[] = [];
    for (const suffix of ["h", "B", "f", "a", "D", "c", "g", "e"])
      usernames.push((await createMember({ username: `${s}${suffix}` })).username);
    const byCase = [...usernames].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    expect(names(await suggestMentions({ id: viewer.id }, s))).toEqual(byCase.slice(0, MENTION_SUGGESTIONS));

    // Members named by display name: the most followed first, three of six places.
    const named = [];
    for (let i = 0; i < 4; i++) named.push(await createMember({ displayName: `Hunter ${s}${i}` }));
    await followUser({ id: viewer.id }, named[2]!.username);
    const mixed = await suggestMentions({ id: viewer.id }, s);
    expect(mixed).toHaveLength(MENTION_SUGGESTIONS);
    expect(names(mixed)).toEqual([...byCase.slice(0, 3), named[2]!.username, named[0]!.username, named[1]!.username]);
    // Fewer of one kind leave their places to the other.
    expect(names(await suggestMentions({ id: viewer.id }, `${s}0`))).toEqual([named[0]!.username]);
  });

  it("refuses a visitor (401) and text that is empty, too long or not letters, digits and underscores (400)", async () => {
    const viewer = await createMember();
    const visitor = await failure(() => suggestMentions(null, "dan"));
    expect(visitor).toMatchObject({ status: 401, message: MENTION_SIGN_IN });
    for (const [text, message] of [
      [undefined, MENTION_QUERY_MESSAGES.missing],
      [null, MENTION_QUERY_MESSAGES.missing],
      ["", MENTION_QUERY_MESSAGES.missing],
      ["   ", MENTION_QUERY_MESSAGES.missing],
      ["a".repeat(31), MENTION_QUERY_MESSAGES.tooLong],
      ["a%", MENTION_QUERY_MESSAGES.characters],
      ["do e", MENTION_QUERY_MESSAGES.characters],
      ["@dan", MENTION_QUERY_MESSAGES.characters],
    ] as const) {
      const refused = await failure(() => suggestMentions({ id: viewer.id }, text));
      expect(refused, String(text)).toMatchObject({ status: 400, message, fieldErrors: { mention: [message] } });
    }
    expect(await suggestMentions({ id: viewer.id }, "a".repeat(30))).toEqual([]);
  });

  it("reads usernames as a range of the username index on both engines (no scan of users)", async () => {
    const viewer = await createMember({ username: "plan_viewer" });
    await createMember({ username: "plan_target" });
    const query = byUsernamePrefixQuery(viewer.id, "PLAN_T", Date.now());
    expect(names(await query)).toEqual(["plan_target"]);
    const { sql: text, params } = query.toSQL();
    if (databaseEngine() === "sqlite") {
      const plan = (await queryRows<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`, params as Params)).map((r) => r.detail).join("\n");
      expect(plan).toMatch(/SEARCH users USING INDEX users_username_nocase \(username>\? AND username<\?\)/);
      expect(plan).not.toMatch(/SCAN users\b/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    } else {
      const plan = await writeTransaction(async () => {
        await queryRows(`ANALYZE users`);
        await queryRows(`SET LOCAL enable_seqscan = off`);
        const rows = await queryRows<{ "QUERY PLAN": string }>(`EXPLAIN ${text.replace(/\$\d+/g, "?")}`, params as Params);
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
      expect(plan).toMatch(/Index Scan using users_username_nocase on users/);
      expect(plan).not.toMatch(/Seq Scan on users/);
    }
  });
});
