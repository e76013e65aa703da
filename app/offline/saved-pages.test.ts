import { describe, expect, it } from "vitest";
import {
  answerEndsSession,
  DOCUMENT_PART,
  MEMBER_OFFLINE_HOURS,
  oldestSaved,
  pageOf,
  sessionStillTrusted,
  withSavedCopyNote,
} from "./saved-pages";

describe("pageOf", () => {
  it("names a document by its address, and loader data by its page and route", () => {
    expect(pageOf(new URL("http://x/post/3?edit=1"))).toEqual({ page: "/post/3?edit=1", part: DOCUMENT_PART });
    expect(pageOf(new URL("http://x/post/3?_data=routes%2Fpost.%24id"))).toEqual({ page: "/post/3", part: "routes/post.$id" });
    expect(pageOf(new URL("http://x/?index&_data=routes%2F_index"))).toEqual({ page: "/", part: "routes/_index" });
    expect(pageOf(new URL("http://x/?sort=popular&index=&_data=routes%2F_index"))).toEqual({
      page: "/?sort=popular",
      part: "routes/_index",
    });
    expect(pageOf(new URL("http://x/clubs/2?_data=root"))).toEqual({ page: "/clubs/2", part: "root" });
  });
});

describe("oldestSaved", () => {
  it("is the oldest saved part, or null when every part is fresh", () => {
    expect(oldestSaved(undefined)).toBeNull();
    expect(oldestSaved(new Map([["routes/post.$id", null]]))).toBeNull();
    expect(
      oldestSaved(
        new Map<string, number | null>([
          ["routes/clubs.$id", 200],
          ["routes/clubs.$id._index", 100],
          ["root", null],
        ]),
      ),
    ).toBe(100);
  });
});

describe("withSavedCopyNote", () => {
  const NOTE = `<p role="status" data-testid="saved-copy-note" class="pointer-events-none fixed"></p>`;
  const now = Date.UTC(2026, 10, 23, 12, 0);
  const fiveMinutesAgo = now - 5 * 60_000;

  it("writes the note into the status line of a page sent without scripts (ADR 0047)", () => {
    const plain = `<!DOCTYPE html><html lang="en-US" data-scripts="none"><body>${NOTE}<main id="main">feed</main></body></html>`;
    const noted = withSavedCopyNote(plain, fiveMinutesAgo, now);
    expect(noted).toContain('data-testid="saved-copy-note" class="pointer-events-none fixed"><span class="');
    expect(noted).toContain(">Saved copy from 5 minutes ago</span></p>");
    expect(noted.replace(/<span[^>]*>[^<]*<\/span>/, "")).toBe(plain);
  });

  it("leaves a page with scripts as it is: React draws its note, and a changed page would not hydrate", () => {
    const scripted = `<!DOCTYPE html><html lang="en-US"><body>${NOTE}<main id="main">feed</main><script type="module"></script></body></html>`;
    expect(withSavedCopyNote(scripted, fiveMinutesAgo, now)).toBe(scripted);
  });
});

describe("sessionStillTrusted", () => {
  const hour = 3_600_000;
  const now = Date.UTC(2026, 10, 27, 12);

  it("keeps a member's pages for MEMBER_OFFLINE_HOURS after the session was last confirmed", () => {
    expect(MEMBER_OFFLINE_HOURS).toBe(72);
    expect(sessionStillTrusted(now, now)).toBe(true);
    expect(sessionStillTrusted(now - 60 * hour, now)).toBe(true); // a weekend in camp
    expect(sessionStillTrusted(now - 72 * hour, now)).toBe(true);
    expect(sessionStillTrusted(now - 72 * hour - 1, now)).toBe(false);
    expect(sessionStillTrusted(now - 30 * 24 * hour, now)).toBe(false);
  });

  it("never trusts a session nobody confirmed, or a clock set back past the bound", () => {
    expect(sessionStillTrusted(null, now)).toBe(false);
    expect(sessionStillTrusted(Number.NaN, now)).toBe(false);
    expect(sessionStillTrusted(now + hour, now)).toBe(true); // a small correction of the clock
    expect(sessionStillTrusted(now + 73 * hour, now)).toBe(false);
  });
});

describe("answerEndsSession", () => {
  it("is a 401 from the API, except a wrong sign-in", () => {
    expect(answerEndsSession("/api/auth/user", 401)).toBe(true);
    expect(answerEndsSession("/api/posts/3", 401)).toBe(true);
    expect(answerEndsSession("/api/auth/login", 401)).toBe(false);
    expect(answerEndsSession("/api/auth/user", 200)).toBe(false);
    expect(answerEndsSession("/api/posts/3", 403)).toBe(false);
    expect(answerEndsSession("/settings", 401)).toBe(false);
    expect(answerEndsSession("/apiary", 401)).toBe(false);
  });
});
