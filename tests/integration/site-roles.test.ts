import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { moderationLog, users } from "#db/schema";
import { loader as userApi } from "~/routes/api.auth.user";
import { loader as profileApi } from "~/routes/api.users.$username";
import { db, first } from "~/utils/db.server";
import { call, createMember, makeRequest } from "../fixtures/members";

/**
 * `npm run role` (CONTRACT.md §8 "Site roles"), run as the operator runs it, in a process of its
 * own on this test's database (DATABASE_URL or DATABASE_PATH, passed on in the environment), and
 * the role in the user object.
 */

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");
const role = (...args: string[]) =>
  run(process.execPath, ["--import", "tsx", "scripts/role.ts", ...args], { cwd: root, env: process.env }).catch(
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
const roleOf = async (id: number) => first(await db.select({ role: users.role }).from(users).where(eq(users.id, id)))?.role;
const logOf = (id: number) => db.select().from(moderationLog).where(eq(moderationLog.targetId, id));

// Each run starts a process with tsx: seconds on a busy machine.
describe("npm run role", { timeout: 240_000 }, () => {
  it("sets a member's role, prints the change and logs it under the operator", async () => {
    const member = await createMember();
    const made = await role(member.username.toUpperCase(), "moderator");
    expect(made).toMatchObject({ stdout: expect.stringContaining(`${member.username}: member → moderator`) });
    expect(await roleOf(member.id)).toBe("moderator");
    expect(await logOf(member.id)).toEqual([
      expect.objectContaining({
        actorId: null,
        actorName: "operator",
        action: "set_role",
        targetType: "user",
        targetLabel: member.username,
        reason: "member → moderator",
      }),
    ]);
    // The user object says so, to the member and to anyone.
    const me = await (await call(userApi, makeRequest("/api/auth/user", { cookie: member.cookie }))).json();
    expect(me.role).toBe("moderator");
    const seen = await (await call(profileApi, makeRequest(`/api/users/${member.username}`), { username: member.username })).json();
    expect(seen.role).toBe("moderator");

    expect(await role(member.username, "admin")).toMatchObject({ stdout: expect.stringContaining("moderator → admin") });
    expect(await role(member.username, "admin")).toMatchObject({ stdout: expect.stringContaining("already admin") });
    expect(await role(member.username, "member")).toMatchObject({ stdout: expect.stringContaining("admin → member") });
    expect(await roleOf(member.id)).toBe("member");
    expect((await logOf(member.id)).map((e) => e.reason)).toEqual(["member → moderator", "moderator → admin", "admin → member"]);
  });

  it("refuses an unknown username or role in one line, exit code 1, changing nothing", async () => {
    const member = await createMember();
    const noMember = await role("no_such_member", "admin");
    expect(noMember).toMatchObject({ code: 1, stderr: 'No member has the username "no_such_member"\n' });
    const badRole = await role(member.username, "owner");
    expect(badRole).toMatchObject({ code: 1, stderr: 'Unknown role "owner": use one of member, moderator, admin\n' });
    expect(await roleOf(member.id)).toBe("member");
    expect(await logOf(member.id)).toEqual([]);
    expect(await role(member.username)).toMatchObject({ code: 2, stderr: expect.stringContaining("Usage: npm run role") });
  });
});
