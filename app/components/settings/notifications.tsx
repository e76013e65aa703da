import { Form } from "react-router";
import type { ReactNode } from "react";
import { Choice } from "~/components/ui/choice";
import { useIsPending } from "~/utils/remix";

/** The page's words come with its data (notificationChoices), not in its first load's code. */
export type NotificationChoices = {
  kinds: { name: string; label: string }[];
  email: { value: string; label: string; hint: string }[];
};

export type NotificationSettingsView = {
  inApp: Record<string, boolean>;
  email: string;
  push: boolean;
  clubPosts: number[];
};

/**
 * Settings › Notifications (CONTRACT.md §7): one plain form for what notifies the member in the app,
 * how often email comes and which clubs' new posts; it works without JavaScript. Push is not on it
 * (ux-3 U17): `pushDevice` is its own section under the form, one switch per device (it needs
 * JavaScript; push-device.tsx). `children` is the private-club feed piece.
 */
export function NotificationSettingsForm({
  settings,
  choices,
  clubs,
  pushDevice,
  children,
}: {
  settings: NotificationSettingsView;
  choices: NotificationChoices;
  clubs: { id: number; name: string }[];
  pushDevice: ReactNode;
  children?: ReactNode;
}) {
  const busy = useIsPending({ intent: "notification-settings" });
  return (
    <div className="space-y-6">
      <h2 id="settings-section-title" className="text-lg font-semibold text-bark-900">
        Notifications
      </h2>
      <Form method="post" action="/settings?tab=notifications" className="space-y-6" preventScrollReset>
        <fieldset className="space-y-1">
          <legend className="text-base font-semibold text-bark-900">In the app</legend>
          <p className="text-sm text-stone-600">Tell me about:</p>
          {choices.kinds.map((kind) => (
            <Choice key={kind.name} type="checkbox" name={`inApp.${kind.name}`} defaultChecked={settings.inApp[kind.name] !== false}>
              {kind.label}
            </Choice>
          ))}
        </fieldset>

        <fieldset className="space-y-1">
          <legend className="text-base font-semibold text-bark-900">Email</legend>
          {choices.email.map((choice) => (
            <Choice
              key={choice.value}
              type="radio"
              name="email"
              value={choice.value}
              defaultChecked={settings.email === choice.value}
              hint={choice.hint}
            >
              {choice.label}
            </Choice>
          ))}
        </fieldset>

        <fieldset className="space-y-1">
          <legend className="text-base font-semibold text-bark-900">New posts in my clubs</legend>
          {clubs.length === 0 ? (
            <p className="text-sm text-stone-600">You are not in any club yet.</p>
          ) : (
            <>
              <p className="text-sm text-stone-600">Tell me about every new post in:</p>
              {clubs.map((club) => (
                <Choice
                  key={club.id}
                  type="checkbox"
                  name="clubPosts"
                  value={String(club.id)}
                  defaultChecked={settings.clubPosts.includes(club.id)}
                >
                  {club.name}
                </Choice>
              ))}
            </>
          )}
        </fieldset>

        <button type="submit" name="intent" value="notification-settings" className="btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save notification settings"}
        </button>
      </Form>
      {pushDevice}
      {children}
    </div>
  );
}
