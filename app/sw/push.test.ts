import { describe, expect, it } from "vitest";
import { forgetPushSubscription, openNotificationPage, readPushPayload, sitePath } from "./push";

/** The service worker's push handlers (app/sw/push.ts), without a browser. */

const ORIGIN = "https://pulse.example.org";

function fakeClients(urls: string[], { navigable = true } = {}) {
  const log: string[] = [];
  const windows = urls.map((url) => ({
    url,
    focus: async () => void log.push(`focus ${url}`),
    navigate: async (to: string) => {
      if (!navigable) throw new TypeError("not controlled");
      log.push(`navigate ${url} -> ${to}`);
    },
  }));
  return {
    log,
    matchAll: async () => windows,
    openWindow: async (to: string) => void log.push(`open ${to}`),
  };
}

describe("readPushPayload", () => {
  it("reads the server's payload and falls back to a plain notice for a push it cannot read", () => {
    const data = (value: unknown) => ({ json: () => value });
    expect(
      readPushPayload(data({ title: "Whitetail Pulse", body: "Alex followed you", url: "/profile/alex", tag: "notification-3" })),
    ).toEqual({
      title: "Whitetail Pulse",
      body: "Alex followed you",
      url: "/profile/alex",
      tag: "notification-3",
    });
    const fallback = { title: "Whitetail Pulse", body: "You have new notifications", url: "/notifications", tag: "notifications" };
    expect(readPushPayload(null)).toEqual(fallback);
    expect(
      readPushPayload({
        json: () => {
          throw new SyntaxError("not json");
        },
      }),
    ).toEqual(fallback);
    expect(readPushPayload(data({ body: 42 }))).toEqual(fallback);
  });
});

describe("sitePath", () => {
  it("keeps same-origin paths and sends anything else to /notifications", () => {
    expect(sitePath("/post/3#comment-9", ORIGIN)).toBe("/post/3#comment-9");
    expect(sitePath(`${ORIGIN}/clubs/4?tab=members`, ORIGIN)).toBe("/clubs/4?tab=members");
    expect(sitePath("https://evil.example/phish", ORIGIN)).toBe("/notifications");
    expect(sitePath("//evil.example/phish", ORIGIN)).toBe("/notifications");
    expect(sitePath("javascript:alert(1)", ORIGIN)).toBe("/notifications");
    expect(sitePath(undefined, ORIGIN)).toBe("/notifications");
  });
});

describe("openNotificationPage", () => {
  it("focuses an open tab of the site and takes it to the page", async () => {
    const clients = fakeClients(["https://other.example/", `${ORIGIN}/`]);
    await openNotificationPage(clients, ORIGIN, "/post/3");
    expect(clients.log).toEqual([`focus ${ORIGIN}/`, `navigate ${ORIGIN}/ -> ${ORIGIN}/post/3`]);
  });

  it("only focuses a tab already on the page", async () => {
    const clients = fakeClients([`${ORIGIN}/`, `${ORIGIN}/post/3`]);
    await openNotificationPage(clients, ORIGIN, "/post/3");
    expect(clients.log).toEqual([`focus ${ORIGIN}/post/3`]);
  });

  it("opens a window when no tab of the site is open, or the tab cannot be navigated", async () => {
    const none = fakeClients(["https://other.example/"]);
    await openNotificationPage(none, ORIGIN, "https://evil.example/");
    expect(none.log).toEqual([`open ${ORIGIN}/notifications`]);
    const stuck = fakeClients([`${ORIGIN}/`], { navigable: false });
    await openNotificationPage(stuck, ORIGIN, "/post/3");
    expect(stuck.log).toEqual([`focus ${ORIGIN}/`, `open ${ORIGIN}/post/3`]);
  });
});

describe("forgetPushSubscription (signing out, issue 26)", () => {
  it("unsubscribes this browser's push subscription, and is a quiet no-op without one or on failure", async () => {
    const log: string[] = [];
    const subscribed = { getSubscription: async () => ({ unsubscribe: async () => (log.push("unsubscribed"), true) }) as PushSubscription };
    expect(await forgetPushSubscription(subscribed)).toBe(true);
    expect(log).toEqual(["unsubscribed"]);
    expect(await forgetPushSubscription({ getSubscription: async () => null })).toBe(false);
    expect(await forgetPushSubscription(undefined)).toBe(false);
    const failing = { getSubscription: async () => Promise.reject(new Error("no push")) };
    expect(await forgetPushSubscription(failing)).toBe(false);
  });
});
