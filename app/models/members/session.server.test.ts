import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions, users } from "#db/schema";
import { createMember } from "#tests/fixtures/members";
import { db, first } from "~/utils/db.server";
import { AppError } from "~/utils/errors";
import {
  SESSION_LIFETIME_MS,
  SESSION_TOUCH_EVERY_MS,
  createSession,
  endSession,
  endSessionByToken,
  endSessions,
  findSession,
  listSessions,
  pruneExpiredSessions,
} from "./session.server";

const rowOf = async (id: number) => first(await db.select().from(sessions).where(eq(sessions.id, id)));
const MINUTE = 60 * 1000;

async function errorOf(fn: () => unknown): Promise<AppError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("sessions", () => {
  it("gives every sign-in its own random token and stores only its hash", async () => {
    const member = await createMember();
    const a = await createSession(member.id, "Chrome on Android");
    const b = await createSession(member.id, "Firefox on Windows");
    expect(a.token).not.toBe(b.token);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token.length * 6).toBeGreaterThanOrEqual(128);
    const row = (await rowOf(a.id))!;
    expect(row.tokenHash).not.toContain(a.token);
    expect(row).toMatchObject({ userId: member.id, device: "Chrome on Android" });
    expect((await findSession(a.token))?.user.id).toBe(member.id);
    expect((await findSession(b.token))?.session.id).toBe(b.id);
    expect(await findSession("x".repeat(43))).toBeUndefined();
  });

  it("expires 30 days after last use; each use slides it on, written at most every few minutes", async () => {
    const member = await createMember();
    const t0 = Date.now();
    const { token, id } = await createSession(member.id, "Safari on iPhone", t0);
    expect((await rowOf(id))!.expiresAt.getTime()).toBe(t0 + SESSION_LIFETIME_MS);

    // A use within the throttle window reads without writing.
    await findSession(token, t0 + MINUTE);
    expect((await rowOf(id))!.lastSeenAt.getTime()).toBe(t0);

    // A use after it moves last-seen and the expiry on.
    const t1 = t0 + SESSION_TOUCH_EVERY_MS + MINUTE;
    expect(await findSession(token, t1)).toBeDefined();
    expect((await rowOf(id))!.lastSeenAt.getTime()).toBe(t1);
    expect((await rowOf(id))!.expiresAt.getTime()).toBe(t1 + SESSION_LIFETIME_MS);

    // Still valid past the first expiry, because it was used since (and this use slides it again) …
    const t2 = t0 + SESSION_LIFETIME_MS + MINUTE;
    expect(await findSession(token, t2)).toBeDefined();
    // … and signed out once 30 days pass without a use.
    expect(await findSession(token, t2 + SESSION_LIFETIME_MS)).toBeUndefined();
    expect(await findSession(token, t2 + SESSION_LIFETIME_MS + MINUTE)).toBeUndefined();
  });

  it("lists the member's live sessions with this device marked, and no one else's", async () => {
    const member = await createMember();
    const other = await createMember();
    const now = Date.now();
    const old = await createSession(member.id, "Chrome on Linux", now - SESSION_LIFETIME_MS - MINUTE);
    const here = await createSession(member.id, "Firefox on Windows", now);
    const phone = await createSession(member.id, "Chrome on Android", now - MINUTE);
    await createSession(other.id, "Safari on iPhone", now);

    const list = await listSessions(member, here.id, now);
    const ids = list.map((s) => s.id);
    expect(ids).toContain(here.id);
    expect(ids).toContain(phone.id);
    expect(ids).not.toContain(old.id);
    expect(list.find((s) => s.id === here.id)).toMatchObject({ device: "Firefox on Windows", current: true });
    expect(list.find((s) => s.id === phone.id)).toMatchObject({ device: "Chrome on Android", current: false });
    expect(list.every((s) => typeof s.lastSeenAt === "string")).toBe(true);
    const theirs = (await listSessions(other, null, now)).map((s) => s.device);
    expect(theirs).toContain("Safari on iPhone");
    expect(theirs).not.toContain("Chrome on Android");
  });

  it("ends one of the member's own sessions; another member's is 404 and untouched", async () => {
    const member = await createMember();
    const stranger = await createMember();
    const mine = await createSession(member.id, "Chrome on Android");
    const theirs = await createSession(stranger.id, "Safari on iPhone");

    const refused = await errorOf(() => endSession(member, theirs.id));
    expect(refused.status).toBe(404);
    expect(await findSession(theirs.token)).toBeDefined();
    expect((await errorOf(() => endSession(member, 999_999_999))).status).toBe(404);
    expect((await errorOf(() => endSession(null, mine.id))).status).toBe(401);

    await endSession(member, mine.id);
    expect(await findSession(mine.token)).toBeUndefined();
    expect(await rowOf(mine.id)).toBeUndefined();
  });

  it("ends all the member's sessions but one, or all of them; logout ends the one its token names", async () => {
    const member = await createMember();
    const stranger = await createMember();
    const here = await createSession(member.id, "a");
    const there = await createSession(member.id, "b");
    const elsewhere = await createSession(member.id, "c");
    const theirs = await createSession(stranger.id, "d");

    await endSessionByToken(elsewhere.token);
    expect(await findSession(elsewhere.token)).toBeUndefined();
    expect(await findSession(here.token)).toBeDefined();

    expect(await endSessions(member, { except: here.id })).toBeGreaterThanOrEqual(1);
    expect(await findSession(there.token)).toBeUndefined();
    expect(await findSession(here.token)).toBeDefined();
    expect(await findSession(theirs.token)).toBeDefined();

    await endSessions(member, { except: null });
    expect(await findSession(here.token)).toBeUndefined();
    expect(await findSession(theirs.token)).toBeDefined();
  });

  it("prunes expired sessions and goes when the member does", async () => {
    const member = await createMember();
    const now = Date.now();
    const expired = await createSession(member.id, "old", now - SESSION_LIFETIME_MS - MINUTE);
    const live = await createSession(member.id, "new", now);
    expect(await pruneExpiredSessions(now)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(expired.id)).toBeUndefined();
    expect(await rowOf(live.id)).toBeDefined();

    await db.delete(users).where(eq(users.id, member.id));
    expect(await rowOf(live.id)).toBeUndefined();
  });
});
