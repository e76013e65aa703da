import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { media, users } from "#db/schema";
import { count, makeMedia } from "#tests/fixtures/posts";
import { createMember } from "#tests/fixtures/members";
import { db } from "~/utils/db.server";
import type { MediaStorage } from "~/utils/media/storage.server";
import { ABANDONED_AFTER_MS, pruneAbandonedUploads, scheduleUploadPruning } from "./media.server";
import { createPost } from "~/models/posts/post.server";

type Member = Awaited<ReturnType<typeof createMember>>;

/** A storage that only records what was deleted. */
function recordingStorage() {
  const deleted: string[] = [];
  const storage = { kind: "local", delete: async (key: string) => void deleted.push(key) } as unknown as MediaStorage;
  return { storage, deleted };
}

const DAY = 24 * 3_600_000;
const age = async (url: string, ms: number) => {
  await db
    .update(media)
    .set({ createdAt: new Date(Date.now() - ms) })
    .where(eq(media.url, url));
};
const exists = async (url: string) => (await count(`SELECT count(*) AS n FROM media WHERE url = ?`, url)) === 1;

let member: Member;
beforeAll(async () => {
  member = await createMember();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("pruning abandoned uploads (off the request path)", () => {
  it("removes week-old uploads no post took, with their files; keeps recent ones, published ones and avatars", async () => {
    const abandoned = await makeMedia(member.id);
    const recent = await makeMedia(member.id);
    const published = await makeMedia(member.id);
    const avatar = await makeMedia(member.id);
    await createPost(member, {
      title: "With a picture",
      content: "A picture from the stand this morning.",
      type: "article",
      uploadedFiles: [published],
    });
    await db.update(users).set({ avatar }).where(eq(users.id, member.id));
    for (const url of [abandoned, published, avatar]) await age(url, ABANDONED_AFTER_MS + DAY);
    await age(recent, DAY);

    const { storage, deleted } = recordingStorage();
    expect(await pruneAbandonedUploads(ABANDONED_AFTER_MS, storage)).toBe(1);
    expect(await Promise.all([abandoned, recent, published, avatar].map(exists))).toEqual([false, true, true, true]);
    expect(deleted).toContain(abandoned.slice("/media/".length));
  });

  it("runs at once and then on its interval, and stops when asked", async () => {
    vi.useFakeTimers();
    const { storage } = recordingStorage();
    const old = await makeMedia(member.id);
    await age(old, ABANDONED_AFTER_MS + DAY);
    const stop = scheduleUploadPruning({ everyMs: 60_000, storage });
    await vi.waitFor(async () => expect(await exists(old)).toBe(false));
    const later = await makeMedia(member.id);
    await age(later, ABANDONED_AFTER_MS + DAY);
    expect(await exists(later)).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    // The run the interval started awaits the database (on PostgreSQL a real round trip): wait for it,
    // without moving the clock anywhere near the next interval.
    await vi.waitFor(async () => expect(await exists(later)).toBe(false));
    stop();
    const after = await makeMedia(member.id);
    await age(after, ABANDONED_AFTER_MS + DAY);
    await vi.advanceTimersByTimeAsync(120_000);
    // Give a run that should not have started the time to finish, had it started.
    vi.useRealTimers();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await exists(after)).toBe(true);
  });
});
