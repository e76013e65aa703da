import { describe, expect, it } from "vitest";
import { releasedUsernames } from "#db/schema";
import { errorOf } from "#tests/fixtures/errors";
import { createMember } from "#tests/fixtures/members";
import { db } from "~/utils/db.server";
import { equalsIgnoringCase } from "~/utils/db/sql-dialect.server";
import { deleteAccount } from "./account.server";
import { registerUser } from "./user.server";

/**
 * security-2 N18: after an account is deleted its username is held for 30 days, so nobody else can
 * register it at once and pass as the member who left (a cached copy of the old profile may still be
 * served under that URL).
 */

const DAY = 24 * 60 * 60 * 1000;
const HELD = "That username was recently used; choose another.";
let n = 0;
const newcomer = (username: string) => {
  n += 1;
  return { username, displayName: "New Hunter", email: `newcomer${n}_${Date.now()}@example.com`, password: "secret123" };
};
/** Move the hold's clock: the username was released `days` ago. */
const releasedDaysAgo = async (username: string, days: number) =>
  await db
    .update(releasedUsernames)
    .set({ releasedAt: new Date(Date.now() - days * DAY) })
    .where(equalsIgnoringCase(releasedUsernames.username, username));

describe("a deleted account's username is held (security-2 N18)", () => {
  it("nobody can register it, in any case, for 30 days: 409 on the username with a clear message", async () => {
    const me = await createMember({ username: `Held_${Date.now() % 100000}`, password: "danpass1" });
    await deleteAccount(me, { password: "danpass1" });
    for (const name of [me.username, me.username.toLowerCase(), me.username.toUpperCase()]) {
      const refused = await errorOf(() => registerUser(newcomer(name)));
      expect(refused.status).toBe(409);
      expect(refused.fieldErrors).toEqual({ username: [HELD] });
    }
    await releasedDaysAgo(me.username, 29);
    expect((await errorOf(() => registerUser(newcomer(me.username)))).status).toBe(409);
    await releasedDaysAgo(me.username, 31);
    const taken = await registerUser(newcomer(me.username));
    expect(taken.username).toBe(me.username);
  });

  it("a wrong password deletes nothing and holds nothing; other usernames are free", async () => {
    const me = await createMember({ password: "danpass1" });
    await errorOf(() => deleteAccount(me, { password: "not-it" }));
    const held = await db.select().from(releasedUsernames).where(equalsIgnoringCase(releasedUsernames.username, me.username));
    expect(held).toEqual([]);
    const other = await registerUser(newcomer(`free_${Date.now() % 100000}`));
    expect(other.id).toBeGreaterThan(0);
  });

  it("a username deleted a second time is held from the second time", async () => {
    const first = await createMember({ username: `Twice_${Date.now() % 100000}`, password: "danpass1" });
    await deleteAccount(first, { password: "danpass1" });
    await releasedDaysAgo(first.username, 31);
    const again = await createMember({ username: first.username.toLowerCase(), password: "danpass2" });
    await deleteAccount(again, { password: "danpass2" });
    expect((await errorOf(() => registerUser(newcomer(first.username)))).status).toBe(409);
    const rows = await db.select().from(releasedUsernames).where(equalsIgnoringCase(releasedUsernames.username, first.username));
    expect(rows).toHaveLength(1);
  });
});
