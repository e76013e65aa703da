import { APP_NAME, SITE_ICON_PATH } from "../utils/brand";

/**
 * The worker's half of web push (issue 26, CONTRACT.md §7; the server's half is
 * app/models/notifications/push.server.ts). A push carries `{ title, body, url, tag }`, nothing more: the worker
 * shows it, and a tap focuses a tab of the site and takes it to `url` (or opens one). Only paths on
 * this site are ever opened; anything else opens /notifications.
 */

declare const self: ServiceWorkerGlobalScope;

export type PushPayload = { title: string; body: string; url: string; tag: string };

export const PUSH_ICON = SITE_ICON_PATH;
const FALLBACK: PushPayload = { title: APP_NAME, body: "You have new notifications", url: "/notifications", tag: "notifications" };

const text = (value: unknown, max: number): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : null;

/** What a push said, or a plain "new notifications" when it said nothing readable (a push must always show something). */
export function readPushPayload(data: { json(): unknown } | null | undefined): PushPayload {
  let raw: Record<string, unknown> = {};
  try {
    const parsed = data?.json();
    if (parsed && typeof parsed === "object") raw = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the fallback below.
  }
  return {
    title: text(raw.title, 100) ?? FALLBACK.title,
    body: text(raw.body, 300) ?? FALLBACK.body,
    url: text(raw.url, 2000) ?? FALLBACK.url,
    tag: text(raw.tag, 100) ?? FALLBACK.tag,
  };
}

/** A same-origin path for `url` (relative or absolute), or /notifications for anything off the site. */
export function sitePath(url: unknown, origin: string): string {
  if (typeof url !== "string") return FALLBACK.url;
  try {
    const resolved = new URL(url, origin);
    if (resolved.origin !== origin) return FALLBACK.url;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return FALLBACK.url;
  }
}

type WindowLike = { url: string; focus(): Promise<unknown>; navigate(url: string): Promise<unknown> };
type ClientsLike = {
  matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<readonly unknown[]>;
  openWindow(url: string): Promise<unknown>;
};

/** A tap: an open tab of the site is focused and taken to the page; without one, a new window opens on it. */
export async function openNotificationPage(clients: ClientsLike, origin: string, url: unknown): Promise<void> {
  const path = sitePath(url, origin);
  const target = new URL(path, origin).href;
  const windows = (await clients.matchAll({ type: "window", includeUncontrolled: true })) as WindowLike[];
  const ours = windows.filter((w) => new URL(w.url).origin === origin);
  const tab = ours.find((w) => w.url === target) ?? ours[0];
  if (tab) {
    try {
      await tab.focus();
      if (tab.url !== target) await tab.navigate(target);
      return;
    } catch {
      // A tab this worker does not control cannot be navigated: a new window instead.
    }
  }
  await clients.openWindow(target);
}

/**
 * Signing out on this browser ends its push subscription here too (issue 26): the server has already
 * dropped it with the session, and unsubscribing makes the browser say push is off for whoever signs
 * in next (Settings › Notifications) instead of "on" for a subscription nobody is sent to. Never throws.
 */
export async function forgetPushSubscription(pushManager: Pick<PushManager, "getSubscription"> | undefined): Promise<boolean> {
  try {
    const subscription = await pushManager?.getSubscription();
    return subscription ? await subscription.unsubscribe() : false;
  } catch {
    return false;
  }
}

export function listenForPush(): void {
  self.addEventListener("push", (event) => {
    const payload = readPushPayload(event.data);
    event.waitUntil(
      self.registration.showNotification(payload.title, {
        body: payload.body,
        tag: payload.tag,
        icon: PUSH_ICON,
        data: { url: sitePath(payload.url, self.location.origin) },
      }),
    );
  });

  self.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const url = (event.notification.data as { url?: unknown } | null)?.url;
    event.waitUntil(openNotificationPage(self.clients, self.location.origin, url));
  });
}
