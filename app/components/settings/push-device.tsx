import { Suspense } from "react";
import { lazyPart } from "~/components/ui/lazy-part";
import { useHydrated } from "~/utils/hydrated";

type Props = { pushOn: boolean };

/**
 * This device's push switch (push-toggle.tsx) is JavaScript by nature (permission, the service
 * worker's subscription), so its code is fetched once the page runs rather than in the settings
 * page's first load (the 120 KB budget); until then, and where JavaScript is off, a sentence says
 * what it needs. A file that does not arrive says so, and the saved choice above still works.
 */
const PushToggle = lazyPart<Props>(() => import("./push-toggle").then((m) => m.PushToggle), Unavailable);

function Unavailable() {
  return (
    <p className="text-sm text-stone-600" data-testid="push-device-state">
      This device&apos;s push switch could not be loaded (no signal?). Your choice above is still saved; reload the page to try again.
    </p>
  );
}

function NeedsJavaScript() {
  return (
    <p className="text-sm text-stone-600" data-testid="push-device-state">
      Push notifications need JavaScript on this device. Your choice above is still saved; turn JavaScript on and come back here to let this
      device receive them.
    </p>
  );
}

export function PushDevice({ pushOn }: Props) {
  const hydrated = useHydrated();
  if (!hydrated) return <NeedsJavaScript />;
  return (
    <Suspense fallback={<p className="text-sm text-stone-600">Checking this device…</p>}>
      <PushToggle pushOn={pushOn} />
    </Suspense>
  );
}
