import { useFetcher } from "react-router";
import { RelativeTime } from "~/components/ui/relative-time";
import type { ActiveSession } from "~/schemas/shapes";

/**
 * Settings › Security: the member's signed-in devices, each other one with its own "Sign out", and
 * "Sign out of all other devices". Plain forms posting to /settings (POST, redirect, GET) without
 * JavaScript; with it, fetchers keep the member in place and show which one is working.
 */
export function SessionList({ sessions, action }: { sessions: ActiveSession[]; action: string }) {
  const others = sessions.filter((s) => !s.current);
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold text-bark-900">Where you're signed in</h2>
      <ul className="divide-y divide-stone-200 rounded-md border border-stone-200" aria-label="Active sessions">
        {sessions.map((session) => (
          <SessionRow key={session.id} session={session} action={action} />
        ))}
      </ul>
      {others.length > 0 ? <EndOthersButton action={action} /> : <p className="text-sm text-stone-500">No other devices are signed in.</p>}
    </div>
  );
}

function SessionRow({ session, action }: { session: ActiveSession; action: string }) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
      data-testid="session"
      data-current={session.current || undefined}
    >
      <div>
        <p className="font-medium text-bark-900">
          {session.device}
          {session.current ? <span className="ml-2 rounded bg-bark-100 px-2 py-0.5 text-xs text-bark-800">This device</span> : null}
        </p>
        <p className="text-sm text-stone-500">
          Last active <RelativeTime iso={session.lastSeenAt} />
        </p>
      </div>
      {session.current ? null : (
        <fetcher.Form method="post" action={action} preventScrollReset>
          <input type="hidden" name="sessionId" value={session.id} />
          <button type="submit" name="intent" value="end-session" className="btn-secondary" disabled={busy}>
            {busy ? "Signing out..." : "Sign out"}
          </button>
        </fetcher.Form>
      )}
    </li>
  );
}

function EndOthersButton({ action }: { action: string }) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={action} preventScrollReset>
      <button type="submit" name="intent" value="end-other-sessions" className="btn-secondary" disabled={busy}>
        {busy ? "Signing out..." : "Sign out of all other devices"}
      </button>
    </fetcher.Form>
  );
}
