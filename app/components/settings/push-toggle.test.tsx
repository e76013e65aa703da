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

function fakeBrowser({
  permission = "default" as NotificationPermission,
  answer = "granted" as NotificationPermission,
  subscribed = false,
  refuse = null as DOMException | null,
} = {}) {
  const made = (): Sub => ({
    endpoint: "https://push.example.net/sub/1",
    toJSON: () => ({ endpoint: "https://push.example.net/sub/1", keys: { p256dh: "p", auth: "a" } }),
    unsubscribe: vi.fn(async () => {
      current = null;
      return true;
    }),
  });
  let current: Sub | null = subscribed ? made() : null;
  const calls: { url: string; method: string; body?: unknown }[] = [];
  const requestPermission = vi.fn(async () => {
    Notification.permission = answer;
    return answer;
  });
  const Notification = { permission, requestPermission };
  const subscribe = vi.fn(async (options: { applicationServerKey: Uint8Array }) => {
    expect(Buffer.from(options.applicationServerKey).toString("base64url")).toBe(PUBLIC_KEY);
    if (refuse) throw refuse;
    current = made();
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

const render = async ({ pushOn = false, here = false } = {}) => {
  root = createRoot(container);
  await act(async () => root.render(<PushToggle pushOn={pushOn} here={here} />));
};
const state = () => container.querySelector('[data-testid="push-device-state"]')?.textContent;
const button = (name: RegExp) => [...container.querySelectorAll("button")].find((b) => name.test(b.textContent ?? ""));
/** The one control (ux-3 U17): a switch whose checked state is this device's push. */
const theSwitch = () => {
  const buttons = [...container.querySelectorAll("button")];
  expect(buttons.length).toBeLessThanOrEqual(1);
  const control = buttons.find((b) => b.getAttribute("role") === "switch" && b.textContent === "Push notifications on this device");
  return control ?? null;
};

describe("PushToggle", () => {
  it("says push needs JavaScript in the server's HTML, and offers no control there", () => {
    const html = renderToString(<PushToggle pushOn here />);
    expect(html).toContain("Push notifications need JavaScript: with it off, this browser cannot receive them.");
    expect(html).not.toContain("<button");
  });

  it("one switch: turning it on asks the browser only when pressed, subscribes with the site's key and sends the subscription; off again", async () => {
    const browser = fakeBrowser();
    await render();
    expect(state()).toBe("Push is off on this device.");
    expect(theSwitch()?.getAttribute("aria-checked")).toBe("false");
    expect(browser.requestPermission).not.toHaveBeenCalled();

    await act(async () => theSwitch()!.click());
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
    expect(browser.calls.at(-1)).toEqual({
      url: "/api/push/subscriptions",
      method: "POST",
      body: { endpoint: "https://push.example.net/sub/1", keys: { p256dh: "p", auth: "a" } },
    });
    expect(state()).toBe("Push is on on this device.");
    expect(theSwitch()?.getAttribute("aria-checked")).toBe("true");

    await act(async () => theSwitch()!.click());
    expect(browser.calls.at(-1)).toEqual({
      url: "/api/push/subscriptions",
      method: "DELETE",
      body: { endpoint: "https://push.example.net/sub/1" },
    });
    expect(browser.current()).toBeNull();
    expect(state()).toBe("Push is off on this device.");
    expect(theSwitch()?.getAttribute("aria-checked")).toBe("false");
  });

  it("is on when the browser's subscription is kept for this session and push is on", async () => {
    fakeBrowser({ permission: "granted", subscribed: true });
    await render({ pushOn: true, here: true });
    expect(state()).toBe("Push is on on this device.");
    expect(theSwitch()?.getAttribute("aria-checked")).toBe("true");
  });

  it("is off when the server no longer keeps the browser's subscription (signed out since) or push is off; on again sends the same one", async () => {
    const browser = fakeBrowser({ permission: "granted", subscribed: true });
    await render({ pushOn: true, here: false });
    expect(theSwitch()?.getAttribute("aria-checked")).toBe("false");
    act(() => root.unmount());
    await render({ pushOn: false, here: true });
    expect(theSwitch()?.getAttribute("aria-checked")).toBe("false");

    await act(async () => theSwitch()!.click());
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(browser.calls.at(-1)).toMatchObject({ url: "/api/push/subscriptions", method: "POST" });
    expect(theSwitch()?.getAttribute("aria-checked")).toBe("true");
  });

  it("shows that the browser blocks it when the member says no, says how to allow it, and subscribes nothing", async () => {
    const browser = fakeBrowser({ answer: "denied" });
    await render();
    await act(async () => theSwitch()!.click());
    expect(state()).toMatch(/Notifications are blocked for this site in this browser/);
    expect(state()).toMatch(/site settings/);
    expect(theSwitch()).toBeNull();
    expect(browser.subscribe).not.toHaveBeenCalled();
    expect(browser.calls).toEqual([]);
  });

  it("a browser that blocked notifications earlier is told so at once, with no switch", async () => {
    fakeBrowser({ permission: "denied" });
    await render({ pushOn: true });
    expect(state()).toMatch(/blocked for this site.*set Notifications to Allow, then reload this page/);
    expect(theSwitch()).toBeNull();
  });

  it("a browser with no push service is told so, with no switch and no 'try again' (ux-3 U17)", async () => {
    fakeBrowser({ refuse: new DOMException("Registration failed - push service not available", "AbortError") });
    await render();
    await act(async () => theSwitch()!.click());
    expect(state()).toMatch(/This browser has no push service/);
    expect(theSwitch()).toBeNull();
    expect(container.querySelector('[role="alert"]')).toBeNull();
    expect(container.textContent).not.toMatch(/try again/i);
  });

  it("says so when the browser cannot take push", async () => {
    await render();
    expect(state()).toBe("This browser cannot receive push notifications. The bell and email still tell you.");
    expect(theSwitch()).toBeNull();
    expect(button(/push/i)).toBeUndefined();
  });
});
