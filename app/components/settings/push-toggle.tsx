import { useCallback, useEffect, useState } from "react";
import { useHydrated } from "~/utils/hydrated";

/**
 * Settings › Notifications › Push notifications on this device (issue 26, CONTRACT.md §7 "Web push";
 * ux-3 U17): the one push control. Its state is this device's: on when the browser holds a
 * subscription, the server keeps one for this session (`here`) and the member's push setting is on.
 * Turning it on asks the browser's permission (only when pressed), subscribes through the service
 * worker with the site's VAPID key and sends the subscription to POST /api/push/subscriptions, which
 * also turns the member's push setting on; turning it off deletes both (the member's last device off
 * turns the setting off). Where it cannot work (no push service, notifications blocked, no push API)
 * it says why in words, and how to fix it when the member can, and shows no switch.
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

export type PushToggleProps = {
  /** The member's push setting. */
  pushOn: boolean;
  /** The server keeps a subscription made in this browser's session. */
  here: boolean;
};

const STATE_WORDS: Record<DeviceState, string> = {
  checking: "Checking this device…",
  unsupported: "This browser cannot receive push notifications. The bell and email still tell you.",
  "no-service":
    "This browser has no push service to deliver notifications (some builds of Chromium have none). The bell and email still tell you; another browser, such as Chrome or Firefox, can receive push.",
  blocked:
    "Notifications are blocked for this site in this browser, so push cannot be turned on here. To allow them, open the site settings (the icon beside the address), set Notifications to Allow, then reload this page.",
  off: "Push is off on this device.",
  on: "Push is on on this device.",
};

export function PushToggle({ pushOn, here }: PushToggleProps) {
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
    // The browser's subscription counts only while the server keeps it for this session and push is
    // on: after a sign-out (the row went with the session) or under another member it is off here.
    setState(subscription && Notification.permission === "granted" && here && pushOn ? "on" : "off");
  }, [here, pushOn]);

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
      if (error instanceof DOMException && error.name === "NotAllowedError") return setState("blocked");
      setMessage(
        error instanceof TypeError
          ? "Push could not be turned on: the site could not be reached (no signal?). Try again when you have a signal."
          : `This browser refused to turn push on${error instanceof Error && error.message ? ` (${error.message})` : ""}. The bell and email still tell you.`,
      );
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
      setMessage(
        "Push could not be turned off on this device: the site could not be reached (no signal?). Try again when you have a signal.",
      );
    } finally {
      setBusy(false);
    }
  }

  const on = state === "on";
  const words = busy ? (on ? "Turning push off on this device…" : "Turning push on on this device…") : STATE_WORDS[state];
  return (
    <div className="space-y-2" data-testid="push-toggle">
      {!hydrated ? (
        <p className="text-sm text-stone-600" data-testid="push-device-state">
          {NEEDS_JAVASCRIPT}
        </p>
      ) : (
        <>
          {(state === "on" || state === "off") && (
            <button
              type="button"
              role="switch"
              aria-checked={on}
              aria-describedby="push-device-state"
              onClick={on ? turnOff : turnOn}
              disabled={busy}
              className="flex min-h-11 w-full items-center justify-between gap-3 rounded-lg border border-stone-200 px-4 py-2 text-left font-medium text-stone-900 hover:bg-stone-50 disabled:opacity-60"
            >
              Push notifications on this device
              <span
                aria-hidden="true"
                className={`relative h-6 w-11 shrink-0 rounded-full transition-colors ${on ? "bg-field-600" : "bg-stone-300"}`}
              >
                <span
                  className={`absolute left-0.5 top-0.5 h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? "translate-x-5" : ""}`}
                />
              </span>
            </button>
          )}
          <p
            id="push-device-state"
            className={`text-sm ${state === "on" || state === "off" ? "text-stone-600" : "font-medium text-stone-800"}`}
            role="status"
            data-testid="push-device-state"
          >
            {words}
          </p>
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

/** What the server's HTML says (and a page without JavaScript keeps): push is a JavaScript thing. */
export const NEEDS_JAVASCRIPT =
  "Push notifications need JavaScript: with it off, this browser cannot receive them. The bell and email still tell you; turn JavaScript on and come back here to turn push on for this device.";
