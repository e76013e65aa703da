import { useCallback, useEffect, useState } from "react";
import { useHydrated } from "~/utils/hydrated";

/**
 * Settings › Notifications › push on this device (issue 26, CONTRACT.md §7 "Web push").
 *
 * The member's push preference (`pushOn`) is saved by the settings form; this part handles the
 * device: with JavaScript, "Turn on push on this device" asks the browser's permission (only when
 * pressed), subscribes through the service worker with the site's VAPID key and sends the
 * subscription to POST /api/push/subscriptions; "Turn off on this device" undoes both. It shows
 * whether this device is on, blocked by the browser, or cannot take push. Without JavaScript it
 * says push needs it (the preference itself still saves).
 */

type DeviceState = "checking" | "unsupported" | "no-service" | "blocked" | "off" | "on";

/**
 * The browser has the push API but no push service behind it: Chromium built without Google's
 * services (Debian's, for one) rejects every subscription with "AbortError: Registration failed -
 * push service not available". Trying again cannot help, so the page says so (ux-3 U17).
 */
function noPushService(error: unknown): boolean {
  return error instanceof DOMException && (error.name === "AbortError" || /push service/i.test(error.message));
}

const READY_TIMEOUT_MS = 10_000;

function pushSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The service worker's registration, or null when none becomes ready in time (e.g. a development server). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), READY_TIMEOUT_MS));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function errorOf(response: Response, fallback: string): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  return typeof body?.error === "string" ? body.error : fallback;
}

const sendJson = (method: "POST" | "DELETE", body: unknown) =>
  fetch("/api/push/subscriptions", {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });

export function PushToggle({ pushOn }: { pushOn: boolean }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<DeviceState>("checking");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const check = useCallback(async () => {
    if (!pushSupported()) return setState("unsupported");
    if (Notification.permission === "denied") return setState("blocked");
    const reg = await registration();
    if (!reg) return setState("unsupported");
    const subscription = await reg.pushManager.getSubscription().catch(() => null);
    setState(subscription && Notification.permission === "granted" ? "on" : "off");
  }, []);

  useEffect(() => {
    if (hydrated) void check();
  }, [hydrated, check]);

  async function turnOn() {
    setBusy(true);
    setMessage(null);
    try {
      // The browser's question comes only now, from the member's own tap.
      const permission = await Notification.requestPermission();
      if (permission === "denied") return setState("blocked");
      if (permission !== "granted") return setMessage("Push stays off: the browser's question was not answered.");
      const reg = await registration();
      if (!reg) return setState("unsupported");
      const keyAnswer = await fetch("/api/push/key", { headers: { Accept: "application/json" } });
      if (!keyAnswer.ok) return setMessage(await errorOf(keyAnswer, "Push could not be turned on. Please try again."));
      const { publicKey } = (await keyAnswer.json()) as { publicKey: string };
      const subscription =
        (await reg.pushManager.getSubscription()) ??
        (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
      const saved = await sendJson("POST", subscription.toJSON());
      if (!saved.ok) {
        await subscription.unsubscribe().catch(() => undefined);
        setState("off");
        return setMessage(await errorOf(saved, "Push could not be turned on. Please try again."));
      }
      setState("on");
    } catch (error) {
      if (noPushService(error)) return setState("no-service");
      setMessage("Push could not be turned on on this device. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    setBusy(true);
    setMessage(null);
    try {
      const reg = await registration();
      const subscription = await reg?.pushManager.getSubscription();
      if (subscription) {
        const removed = await sendJson("DELETE", { endpoint: subscription.endpoint });
        if (!removed.ok && removed.status !== 401)
          return setMessage(await errorOf(removed, "Push could not be turned off. Please try again."));
        await subscription.unsubscribe();
      }
      setState("off");
    } catch {
      setMessage("Push could not be turned off on this device. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-2" data-testid="push-toggle">
      {!hydrated ? (
        <p className="text-sm text-stone-600" data-testid="push-device-state">
          Push notifications need JavaScript on this device. Your choice above is still saved; turn JavaScript on and come back here to let
          this device receive them.
        </p>
      ) : (
        <>
          <p className="text-sm font-medium text-stone-800" role="status" data-testid="push-device-state">
            {state === "checking" && "Checking this device…"}
            {state === "unsupported" && "This browser cannot receive push notifications."}
            {state === "no-service" &&
              "This browser has no push service to deliver notifications (some builds of Chromium have none). The bell and email still tell you; another browser, such as Chrome or Firefox, can receive push."}
            {state === "blocked" &&
              "Notifications are blocked for this site in your browser. Allow them in the browser's site settings, then come back here."}
            {state === "off" && "Push is off on this device."}
            {state === "on" && (pushOn ? "Push is on on this device." : "This device is ready, but push is off in your settings above.")}
          </p>
          {state === "off" && (
            <button type="button" className="btn-secondary" onClick={turnOn} disabled={busy}>
              {busy ? "Turning on…" : "Turn on push on this device"}
            </button>
          )}
          {state === "on" && (
            <button type="button" className="btn-secondary" onClick={turnOff} disabled={busy}>
              {busy ? "Turning off…" : "Turn off on this device"}
            </button>
          )}
          {message && (
            <p className="text-sm text-red-700" role="alert">
              {message}
            </p>
          )}
        </>
      )}
    </div>
  );
}
