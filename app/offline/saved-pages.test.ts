import { describe, expect, it } from "vitest";
import {
  answerEndsSession,
  answerWorthALook,
  DATA_PART,
  DOCUMENT_PART,
  isSignOut,
  MEMBER_OFFLINE_HOURS,
  oldestSaved,
  olderDataRequest,
  pageOf,
  sessionStillTrusted,
  wholeDataRequest,
  withSavedCopyNote,
} from "./saved-pages";

describe("pageOf", () => {
  it("names a document by its address, and a data request (single fetch) by its page and the routes it asks for", () => {
    expect(pageOf(new URL("http://x/post/3?edit=1"))).toEqual({ page: "/post/3?edit=1", part: DOCUMENT_PART });
    expect(pageOf(new URL("http://x/post/3.data"))).toEqual({ page: "/post/3", part: DATA_PART });
    expect(pageOf(new URL("http://x/post/3.data?edit=1&_routes=root"))).toEqual({ page: "/post/3?edit=1", part: "root" });
    expect(pageOf(new URL("http://x/_root.data"))).toEqual({ page: "/", part: DATA_PART });
    expect(pageOf(new URL("http://x/_root.data?sort=popular&index="))).toEqual({ page: "/?sort=popular", part: DATA_PART });
    expect(pageOf(new URL("http://x/clubs/2/members.data?_routes=root%2Croutes%2Fclubs.%24id.members"))).toEqual({
      page: "/clubs/2/members",
      part: "root,routes/clubs.$id.members",
    });
  });

  it("a data request for some routes has the one for every route of its page as its whole", () => {
    expect(wholeDataRequest(new URL("http://x/post/3.data?edit=1&_routes=root")).href).toBe("http://x/post/3.data?edit=1");
    expect(wholeDataRequest(new URL("http://x/_root.data")).href).toBe("http://x/_root.data");
  });

  it("tells the build before single fetch's loader-data requests from pages and data requests", () => {
    expect(olderDataRequest(new URL("http://x/post/3?_data=routes%2Fpost.%24id"))).toBe(true);
    expect(olderDataRequest(new URL("http://x/post/3.data"))).toBe(false);
    expect(olderDataRequest(new URL("http://x/post/3"))).toBe(false);
  });
});

describe("isSignOut", () => {
  it("is the sign-out form's post, with JavaScript too (single fetch's /logout.data), and the API's", () => {
    expect(isSignOut("POST", "/logout")).toBe(true);
    expect(isSignOut("POST", "/logout.data")).toBe(true);
    expect(isSignOut("POST", "/api/auth/logout")).toBe(true);
    expect(isSignOut("GET", "/logout")).toBe(false);
    expect(isSignOut("POST", "/logouts")).toBe(false);
    expect(isSignOut("POST", "/post/3.data")).toBe(false);
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

describe("answerWorthALook", () => {
  const look = (method: string, address: string, { navigate = false, contentType = null as string | null } = {}) => {
    const url = new URL(address, "http://x");
    return answerWorthALook({ method, pathname: url.pathname, search: url.searchParams, navigate, contentType });
  };

  it("looks at /api reads and the sign-in page, typed or fetched, which the page cache never sees", () => {
    expect(look("GET", "/api/auth/user")).toBe(true);
    expect(look("GET", "/api/auth/user", { navigate: true })).toBe(true);
    expect(look("HEAD", "/api/posts/3")).toBe(true);
    expect(look("GET", "/auth?mode=login&redirectTo=%2Fsettings", { navigate: true })).toBe(true);
    expect(look("GET", "/auth.data")).toBe(true);
    expect(look("GET", "/auth.data?_routes=routes%2Fauth")).toBe(true);
    expect(look("GET", "/auth?_data=routes%2Fauth")).toBe(true);
    // Pages are the page cache's; build files and media say nothing about a session.
    expect(look("GET", "/clubs/2", { navigate: true })).toBe(false);
    expect(look("GET", "/assets/entry.client-abc.js")).toBe(false);
    expect(look("GET", "/media/a.jpg")).toBe(false);
    expect(look("GET", "/authors")).toBe(false);
    expect(look("GET", "/authors.data")).toBe(false);
  });

  it("looks at a form sent with JavaScript, but never relays an /api write, a file or a sign-out", () => {
    const form = "application/x-www-form-urlencoded;charset=UTF-8";
    expect(look("POST", "/post/3.data", { contentType: form })).toBe(true);
    expect(look("POST", "/auth.data", { contentType: form })).toBe(true);
    // A page of the build before single fetch, still open.
    expect(look("POST", "/post/3?_data=routes%2Fpost.%24id", { contentType: form })).toBe(true);
    // /api writes: the outbox's sends race the worker's Background Sync; the page reports their 401.
    expect(look("POST", "/api/posts/3/comments", { contentType: "application/json" })).toBe(false);
    expect(look("DELETE", "/api/posts/3/like")).toBe(false);
    // Files: multipart forms, tus chunks, a body of unknown kind.
    expect(look("POST", "/create.data", { contentType: "multipart/form-data; boundary=x" })).toBe(false);
    expect(look("PATCH", "/api/uploads/abc", { contentType: "application/offset+octet-stream" })).toBe(false);
    expect(look("POST", "/post/3.data")).toBe(false);
    // Sign-out is forgotten as it leaves; a form posted as a navigation answers with a redirect the worker cannot read.
    expect(look("POST", "/logout.data", { contentType: form })).toBe(false);
    expect(look("POST", "/logout?_data=routes%2Flogout", { contentType: form })).toBe(false);
    expect(look("POST", "/post/3", { navigate: true, contentType: form })).toBe(false);
    expect(look("POST", "/post/3", { contentType: form })).toBe(false);
  });
});
