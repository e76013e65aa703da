import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { count, makeMedia } from "#tests/fixtures/posts";
import { createMember } from "#tests/fixtures/members";
import { sqlite } from "~/utils/db.server";
import type { MediaStorage } from "~/utils/storage.server";
import { ABANDONED_AFTER_MS, pruneAbandonedUploads, scheduleUploadPruning } from "./media.server";
import { createPost } from "./post.server";

type Member = Awaited<ReturnType<typeof createMember>>;

/** A storage that only records what was deleted. */
function recordingStorage() {
  const deleted: string[] = [];
  const storage = { kind: "local", delete: async (key: string) => void deleted.push(key) } as unknown as MediaStorage;
  return { storage, deleted };
}

const DAY = 24 * 3_600_000;
const age = (url: string, ms: number) => sqlite.prepare(`UPDATE media SET created_at = ? WHERE url = ?`).run(Date.now() - ms, url);
const exists = (url: string) => count(`SELECT count(*) AS n FROM media WHERE url = ?`, url) === 1;

let member: Member;
beforeAll(async () => {
  member = await createMember();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("pruning abandoned uploads (off the request path)", () => {
  it("removes week-old uploads no post took, with their files; keeps recent ones, published ones and avatars", async () => {
    const abandoned = makeMedia(member.id);
    const recent = makeMedia(member.id);
    const published = makeMedia(member.id);
    const avatar = makeMedia(member.id);
    await createPost(member, {
      title: "With a picture",
      content: "A picture from the stand this morning.",
      type: "article",
      uploadedFiles: [published],
    });
    sqlite.prepare(`UPDATE users SET avatar = ? WHERE id = ?`).run(avatar, member.id);
    for (const url of [abandoned, published, avatar]) age(url, ABANDONED_AFTER_MS + DAY);
    age(recent, DAY);

    const { storage, deleted } = recordingStorage();
    expect(await pruneAbandonedUploads(ABANDONED_AFTER_MS, storage)).toBe(1);
    expect([abandoned, recent, published, avatar].map(exists)).toEqual([false, true, true, true]);
    expect(deleted).toContain(abandoned.slice("/media/".length));
  });

  it("runs at once and then on its interval, and stops when asked", async () => {
    vi.useFakeTimers();
    const { storage } = recordingStorage();
    const old = makeMedia(member.id);
    age(old, ABANDONED_AFTER_MS + DAY);
    const stop = scheduleUploadPruning({ everyMs: 60_000, storage });
    await vi.waitFor(() => expect(exists(old)).toBe(false));
    const later = makeMedia(member.id);
    age(later, ABANDONED_AFTER_MS + DAY);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(exists(later)).toBe(false);
    stop();
    const after = makeMedia(member.id);
    age(after, ABANDONED_AFTER_MS + DAY);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(exists(after)).toBe(true);
  });
});
