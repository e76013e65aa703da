import { Suspense } from "react";
import { Form } from "react-router";
import { lazyPart } from "~/components/ui/lazy-part";
import { useHydrated } from "~/utils/hydrated";
import { useIsPending } from "~/utils/remix";
import type { PushToggleProps } from "./push-toggle";

/** What the page knows of the member's push: their setting, this session's subscription, the other devices'. */
export type PushSettingsProps = PushToggleProps & { elsewhere: number };

/**
 * Settings › Notifications › Push notifications (ux-3 U17): one control, this device's switch
 * (push-toggle.tsx). It is JavaScript by nature (permission, the service worker's subscription), so
 * its code is fetched once the page runs rather than in the settings page's first load (the 120 KB
 * budget); until then, and where JavaScript is off, a sentence says push needs it. A file that does
 * not arrive says so. When push also goes to the member's other devices, a plain form turns it off
 * there (it works without JavaScript: a lost phone, a browser with it off).
 */
const PushToggle = lazyPart<PushToggleProps>(() => import("./push-toggle").then((m) => m.PushToggle), Unavailable);

function Unavailable() {
  return (
    <p className="text-sm text-stone-600" data-testid="push-device-state">
      This device&apos;s push switch could not be loaded (no signal?). Reload the page to try again.
    </p>
  );
}

/** The same words as push-toggle.tsx's NEEDS_JAVASCRIPT, kept here so the first load does not fetch that file for them. */
function NeedsJavaScript() {
  return (
    <p className="text-sm text-stone-600" data-testid="push-device-state">
      Push notifications need JavaScript: with it off, this browser cannot receive them. The bell and email still tell you; turn JavaScript
      on and come back here to turn push on for this device.
    </p>
  );
}

export function PushSettings({ pushOn, here, elsewhere }: PushSettingsProps) {
  const hydrated = useHydrated();
  const busy = useIsPending({ intent: "push-off-elsewhere" });
  return (
    <section className="space-y-3" aria-labelledby="push-settings-title" data-testid="push-settings">
      <h3 id="push-settings-title" className="text-base font-semibold text-bark-900">
        Push notifications
      </h3>
      {hydrated ? (
        <Suspense fallback={<p className="text-sm text-stone-600">Checking this device…</p>}>
          <PushToggle pushOn={pushOn} here={here} />
        </Suspense>
      ) : (
        <NeedsJavaScript />
      )}
      {pushOn && elsewhere > 0 ? (
        <Form method="post" action="/settings?tab=notifications" className="space-y-2" preventScrollReset>
          <p className="text-sm text-stone-600" data-testid="push-elsewhere">
            Push also goes to {elsewhere === 1 ? "1 other device" : `${elsewhere} other devices`} of yours.
          </p>
          <button type="submit" name="intent" value="push-off-elsewhere" className="btn-secondary" disabled={busy}>
            {busy ? "Turning off…" : "Turn off push on your other devices"}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
