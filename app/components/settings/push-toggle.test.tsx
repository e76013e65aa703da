// @vitest-environment jsdom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PushToggle } from "./push-toggle";

// React's act() wants to be told it runs in a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const PUBLIC_KEY = Buffer.from(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i))).toString("base64url");

type Sub = { endpoint: string; toJSON(): unknown; unsubscribe: () => Promise<boolean> };

function fakeBrowser({ permission = "default" as NotificationPermission, answer = "granted" as NotificationPermission } = {}) {
  let current: Sub | null = null;
  const calls: { url: string; method: string; body?: unknown }[] = [];
  const requestPermission = vi.fn(async () => {
    Notification.permission = answer;
    return answer;
  });
  const Notification = { permission, requestPermission };
  const subscribe = vi.fn(async (options: { applicationServerKey: Uint8Array }) => {
    expect(Buffer.from(options.applicationServerKey).toString("base64url")).toBe(PUBLIC_KEY);
    current = {
      endpoint: "https://push.example.net/sub/1",
      toJSON: () => ({ endpoint: "https://push.example.net/sub/1", keys: { p256dh: "p", auth: "a" } }),
      unsubscribe: vi.fn(async () => {
        current = null;
        return true;
      }),
    };
    return current;
  });
  const registration = { pushManager: { getSubscription: async () => current, subscribe } };
  vi.stubGlobal("Notification", Notification);
  vi.stubGlobal("PushManager", function PushManager() {});
  Object.defineProperty(navigator, "serviceWorker", { value: { ready: Promise.resolve(registration) }, configurable: true });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, method: init.method ?? "GET", body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (url === "/api/push/key") return new Response(JSON.stringify({ publicKey: PUBLIC_KEY }), { status: 200 });
      return new Response(init.method === "DELETE" ? null : "{}", { status: init.method === "DELETE" ? 204 : 201 });
    }),
  );
  return { calls, requestPermission, subscribe, current: () => current };
}

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
});
afterEach(() => {
  act(() => root?.unmount());
  container.remove();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "serviceWorker");
});

const render = async (pushOn = true) => {
  root = createRoot(container);
  await act(async () => root.render(<PushToggle pushOn={pushOn} />));
};
const state = () => container.querySelector('[data-testid="push-device-state"]')?.textContent;
const button = (name: RegExp) => [...container.querySelectorAll("button")].find((b) => name.test(b.textContent ?? ""));

describe("PushToggle", () => {
  it("says push needs JavaScript in the server's HTML", () => {
    expect(renderToString(<PushToggle pushOn />)).toContain("Push notifications need JavaScript on this device");
  });

  it("asks the browser only when pressed, subscribes with the site's key and sends the subscription; turns off again", async () => {
    const browser = fakeBrowser();
    await render();
    expect(state()).toBe("Push is off on this device.");
    expect(browser.requestPermission).not.toHaveBeenCalled();

    await act(async () => button(/Turn on push on this device/)!.click());
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
    expect(browser.calls.at(-1)).toEqual({
      url: "/api/push/subscriptions",
      method: "POST",
      body: { endpoint: "https://push.example.net/sub/1", keys: { p256dh: "p", auth: "a" } },
    });
    expect(state()).toBe("Push is on on this device.");

    await act(async () => button(/Turn off on this device/)!.click());
    expect(browser.calls.at(-1)).toEqual({
      url: "/api/push/subscriptions",
      method: "DELETE",
      body: { endpoint: "https://push.example.net/sub/1" },
    });
    expect(browser.current()).toBeNull();
    expect(state()).toBe("Push is off on this device.");
  });

  it("shows that the browser blocks it when the member says no, and subscribes nothing", async () => {
    const browser = fakeBrowser({ answer: "denied" });
    await render();
    await act(async () => button(/Turn on push/)!.click());
    expect(state()).toMatch(/Notifications are blocked for this site in your browser/);
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(browser.calls).toEqual([]);
  });

  it("says so when the browser cannot take push", async () => {
    await render();
    expect(state()).toBe("This browser cannot receive push notifications.");
    expect(button(/Turn on/)).toBeUndefined();
  });
});
