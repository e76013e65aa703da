import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { media, passwordResets, sessions, users } from "#db/schema";
import { errorOf } from "#tests/fixtures/errors";
import { decodedBody, startMailSink } from "#tests/fixtures/mail-sink";
import { createMember } from "#tests/fixtures/members";
import { db, first } from "~/utils/db.server";
import { setMailSettings } from "~/utils/mail.server";
import { verifyPassword } from "~/utils/password.server";
import { followUser } from "./follow.server";
import { issueResetToken } from "./password-reset.server";
import { changePassword, getProfile, updateAvatar, updateProfile } from "./profile.server";
import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";

const rowOf = async (id: number) => first(await db.select().from(users).where(eq(users.id, id)))!;
const resetsOf = async (id: number) => await db.select().from(passwordResets).where(eq(passwordResets.userId, id));
const sessionCountOf = async (id: number) => (await db.select().from(sessions).where(eq(sessions.userId, id))).length;

async function addMedia(ownerId: number, url: string, kind: "image" | "video" = "image", postId: number | null = null) {
  await db.insert(media).values({
    ownerId,
    url,
    kind,
    postId,
    storageKey: url,
    name: "pic.jpg",
    mimeType: kind === "image" ? "image/jpeg" : "video/mp4",
    size: 10,
  });
}

describe("getProfile", () => {
  it("shows the email to the member only, and whether the viewer follows", async () => {
    const owner = await createMember();
    const other = await createMember();

    const self = await getProfile({ id: owner.id }, owner.username);
    expect(self.email).toBe(owner.email);
    expect(self.isFollowing).toBe(false);

    const seen = await getProfile({ id: other.id }, owner.username.toUpperCase());
    expect(seen).not.toHaveProperty("email");
    expect(seen.username).toBe(owner.username);
    expect(seen.isFollowing).toBe(false);
    await followUser({ id: other.id }, owner.username);
    expect(await getProfile({ id: other.id }, owner.username)).toMatchObject({ isFollowing: true, followersCount: 1 });

    const anon = await getProfile(null, owner.username);
    expect(anon).not.toHaveProperty("email");
    expect(JSON.stringify(anon)).not.toMatch(/password|sessionVersion/i);
  });

  it("is 404 'Profile Not Found' for an unknown member", async () => {
    const error = await errorOf(() => getProfile(null, "no_such_member"));
    expect([error.status, error.message]).toEqual([404, "Profile Not Found"]);
  });
});

describe("updateProfile", () => {
  it("lets the owner change their fields; absent fields stay, empty ones clear", async () => {
    const owner = await createMember();
    const user = await updateProfile({ id: owner.id }, owner.username, {
      displayName: "  Buck Hunter ",
      bio: "Bowhunter",
      location: "Buffalo County, WI",
    });
    expect(user).toMatchObject({ displayName: "Buck Hunter", bio: "Bowhunter", location: "Buffalo County, WI" });

    await updateProfile({ id: owner.id }, owner.username, { displayName: "Buck" });
    expect(await rowOf(owner.id)).toMatchObject({ displayName: "Buck", bio: "Bowhunter", location: "Buffalo County, WI" });

    await updateProfile({ id: owner.id }, owner.username, { bio: "", location: null });
    expect(await rowOf(owner.id)).toMatchObject({ bio: null, location: null });
  });

  it("refuses anonymous (401), another member (403) and unknown members (404), changing nothing", async () => {
    const owner = await createMember();
    const other = await createMember();
    expect((await errorOf(() => updateProfile(null, owner.username, { displayName: "X" }))).status).toBe(401);
    expect((await errorOf(() => updateProfile({ id: other.id }, owner.username, { displayName: "X" }))).status).toBe(403);
    expect((await errorOf(() => updateProfile({ id: other.id }, "no_such_member", { displayName: "X" }))).status).toBe(404);
    expect((await rowOf(owner.id)).displayName).toBe(owner.displayName);
  });

  it("stores a new email lower-cased and refuses one another member has (409 on email)", async () => {
    const owner = await createMember();
    const other = await createMember();
    await updateProfile({ id: owner.id }, owner.username, { email: "New.Address@Example.com", currentPassword: owner.password });
    expect((await rowOf(owner.id)).email).toBe("new.address@example.com");

    const error = await errorOf(() =>
      updateProfile({ id: owner.id }, owner.username, {
        displayName: "Changed",
        email: other.email.toUpperCase(),
        currentPassword: owner.password,
      }),
    );
    expect(error.status).toBe(409);
    expect(error.fieldErrors).toEqual({ email: ["Email is already registered"] });
    expect(await rowOf(owner.id)).toMatchObject({ email: "new.address@example.com", displayName: owner.displayName });

    // Keeping one's own address is not a conflict.
    expect((await updateProfile({ id: owner.id }, owner.username, { email: "new.address@example.com" })).email).toBe(
      "new.address@example.com",
    );
  });
});

describe("changing the email needs the current password (security-2 N4)", () => {
  let sink: Awaited<ReturnType<typeof startMailSink>>;
  const mail = () => ({ smtpUrl: sink.url, from: "Pulse <pulse@example.org>", publicUrl: "https://pulse.example.org" });
  beforeAll(async () => {
    sink = await startMailSink();
    setMailSettings(mail());
  });
  afterAll(async () => {
    setMailSettings(null);
    await sink.close();
  });

  it("missing or wrong: 400 on currentPassword, nothing changes and nothing is mailed", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const change = { displayName: "Taken Over", email: "attacker-box@evil.example" };
    const missing = await errorOf(() => updateProfile({ id: owner.id }, owner.username, change));
    expect(missing.status).toBe(400);
    expect(missing.fieldErrors).toEqual({ currentPassword: ["Enter your current password to change your email"] });
    const blank = await errorOf(() => updateProfile({ id: owner.id }, owner.username, { ...change, currentPassword: "" }));
    expect(blank.fieldErrors).toEqual({ currentPassword: ["Enter your current password to change your email"] });
    const wrong = await errorOf(() => updateProfile({ id: owner.id }, owner.username, { ...change, currentPassword: "guess1" }));
    expect(wrong.status).toBe(400);
    expect(wrong.fieldErrors).toEqual({ currentPassword: ["Current password is incorrect"] });
    expect(await rowOf(owner.id)).toMatchObject({ email: owner.email, displayName: owner.displayName });
    expect(sink.received).toHaveLength(0);
  });

  it("the password comes before the address check, so a borrowed session cannot probe which addresses are taken", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const other = await createMember();
    const probe = await errorOf(() => updateProfile({ id: owner.id }, owner.username, { email: other.email }));
    expect(probe.status).toBe(400);
    expect(probe.fieldErrors).toEqual({ currentPassword: ["Enter your current password to change your email"] });
    const taken = await errorOf(() => updateProfile({ id: owner.id }, owner.username, { email: other.email, currentPassword: "oldpass1" }));
    expect(taken.status).toBe(409);
  });

  it("the same email (any case), or none, needs no password", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const same = await updateProfile({ id: owner.id }, owner.username, {
      displayName: "Same Box",
      email: ` ${owner.email.toUpperCase()} `,
    });
    expect(same).toMatchObject({ displayName: "Same Box", email: owner.email });
    expect((await updateProfile({ id: owner.id }, owner.username, { bio: "Still me" })).bio).toBe("Still me");
    expect(sink.received).toHaveLength(0);
  });

  it("with the right password: changed, the old address is told, and pending reset links end (N15)", async () => {
    const owner = await createMember({ password: "oldpass1" });
    await issueResetToken(owner.id);
    expect(await resetsOf(owner.id)).toHaveLength(1);
    const user = await updateProfile({ id: owner.id }, owner.username, { email: "New.Box@Example.com", currentPassword: "oldpass1" });
    expect(user.email).toBe("new.box@example.com");
    expect(await resetsOf(owner.id)).toHaveLength(0);
    const told = await sink.next();
    expect(told.to).toEqual([owner.email]);
    const text = decodedBody(told.raw);
    expect(text).toContain("new.box@example.com");
    expect(text).toContain(owner.username);
  });

  it("where mail is not configured the change still goes through, and nothing is sent", async () => {
    const owner = await createMember({ password: "oldpass1" });
    setMailSettings(null);
    try {
      const user = await updateProfile({ id: owner.id }, owner.username, { email: "quiet.box@example.com", currentPassword: "oldpass1" });
      expect(user.email).toBe("quiet.box@example.com");
    } finally {
      setMailSettings(mail());
    }
    expect(sink.received).toHaveLength(0);
  });

  it("wrong passwords count towards the sign-in failure limit", async () => {
    const owner = await createMember({ password: "oldpass1" });
    limitsOn();
    try {
      for (let i = 0; i < 10; i++) {
        await errorOf(() => updateProfile({ id: owner.id }, owner.username, { email: "x@example.com", currentPassword: "guess" + i }));
      }
      const limited = await errorOf(() =>
        updateProfile({ id: owner.id }, owner.username, { email: "x@example.com", currentPassword: "oldpass1" }),
      );
      expect(limited.status).toBe(429);
    } finally {
      limitsOff();
    }
    expect((await rowOf(owner.id)).email).toBe(owner.email);
  });
});

describe("updateAvatar", () => {
  it("accepts only an unattached image the member uploaded", async () => {
    const owner = await createMember();
    const other = await createMember();
    await addMedia(owner.id, `/media/${owner.id}-a.jpg`);
    await addMedia(other.id, `/media/${other.id}-b.jpg`);
    await addMedia(owner.id, `/media/${owner.id}-c.mp4`, "video");

    expect((await updateAvatar({ id: owner.id }, owner.username, `/media/${owner.id}-a.jpg`)).avatar).toBe(`/media/${owner.id}-a.jpg`);

    for (const url of [`/media/${other.id}-b.jpg`, `/media/${owner.id}-c.mp4`, "https://evil.example/pixel.gif", "javascript:alert(1)"]) {
      const error = await errorOf(() => updateAvatar({ id: owner.id }, owner.username, url));
      expect(error.status).toBe(400);
      expect(error.fieldErrors).toEqual({ avatar: ["Choose an image you uploaded"] });
    }
    expect((await rowOf(owner.id)).avatar).toBe(`/media/${owner.id}-a.jpg`);

    expect((await errorOf(() => updateAvatar({ id: other.id }, owner.username, `/media/${other.id}-b.jpg`))).status).toBe(403);
    expect((await errorOf(() => updateAvatar(null, owner.username, null))).status).toBe(401);

    expect((await updateAvatar({ id: owner.id }, owner.username, null)).avatar).toBeNull();
  });
});

describe("changePassword", () => {
  it("checks the current password, stores the new one and ends the member's sessions", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const before = await rowOf(owner.id);

    const wrong = await errorOf(() =>
      changePassword({ id: owner.id }, { currentPassword: "not-it", newPassword: "newpass1", confirmPassword: "newpass1" }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.fieldErrors).toEqual({ currentPassword: ["Current password is incorrect"] });
    expect(await rowOf(owner.id)).toMatchObject({ passwordHash: before.passwordHash });
    expect(await sessionCountOf(owner.id)).toBe(1);

    const mismatch = await errorOf(() =>
      changePassword({ id: owner.id }, { currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass2" }),
    );
    expect(mismatch.fieldErrors).toEqual({ confirmPassword: ["Passwords don't match"] });

    const { sessionsEnded, user } = await changePassword(
      { id: owner.id },
      { currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass1" },
    );
    expect(sessionsEnded).toBe(1);
    expect(user).not.toHaveProperty("passwordHash");
    const after = await rowOf(owner.id);
    expect(await sessionCountOf(owner.id)).toBe(0);
    expect(await verifyPassword("newpass1", after.passwordHash)).toBe(true);
    expect(await verifyPassword("oldpass1", after.passwordHash)).toBe(false);
  });

  it("ends the member's pending reset links (security-2 N15)", async () => {
    const owner = await createMember({ password: "oldpass1" });
    const other = await createMember();
    await issueResetToken(owner.id);
    await issueResetToken(other.id);
    await changePassword({ id: owner.id }, { currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass1" });
    expect(await resetsOf(owner.id)).toHaveLength(0);
    expect(await resetsOf(other.id)).toHaveLength(1);
  });

  it("is 401 signed out", async () => {
    expect(
      (await errorOf(() => changePassword(null, { currentPassword: "a", newPassword: "bbbbbb", confirmPassword: "bbbbbb" }))).status,
    ).toBe(401);
  });

  it("counts wrong current passwords towards the sign-in failure limit", async () => {
    const owner = await createMember({ password: "oldpass1" });
    limitsOn();
    try {
      for (let i = 0; i < 10; i++) {
        await errorOf(() =>
          changePassword({ id: owner.id }, { currentPassword: "guess" + i, newPassword: "newpass1", confirmPassword: "newpass1" }),
        );
      }
      const limited = await errorOf(() =>
        changePassword({ id: owner.id }, { currentPassword: "oldpass1", newPassword: "newpass1", confirmPassword: "newpass1" }),
      );
      expect(limited.status).toBe(429);
    } finally {
      limitsOff();
    }
  });
});
