import { Form, Link } from "react-router";
import { Field, FieldErrors } from "~/components/ui/field";
import { IdempotencyKeyInput } from "~/components/ui/idempotency-key";

/**
 * The club hunts' parts (issue 44): a hunt in a list, the "Add to calendar" links and the plan / edit
 * form. Times arrive as words drawn on the server in the zone the page shows (ADR 0089), so the
 * browser formats nothing and hydration matches.
 */

export type HuntItem = {
  id: number;
  clubId: number;
  title: string;
  location: string | null;
  cancelled: boolean;
  going: number;
  maybe: number;
  myRsvp: "going" | "maybe" | "no" | null;
  when: string;
};

const ANSWER_WORDS = { going: "You're going", maybe: "You might go", no: "You're not going" } as const;

export function HuntList({ hunts, label }: { hunts: HuntItem[]; label: string }) {
  return (
    <ul className="space-y-3" aria-label={label}>
      {hunts.map((h) => (
        <li key={h.id} className="card p-4" data-testid="hunt">
          <Link
            to={`/clubs/${h.clubId}/events/${h.id}`}
            className="flex min-h-11 items-center text-lg font-semibold text-bark-900 hover:underline"
          >
            {h.cancelled ? (
              <span className="mr-2 rounded bg-red-100 px-2 py-0.5 text-xs font-bold uppercase text-red-800">Cancelled</span>
            ) : null}
            {h.title}
          </Link>
          <p className="mt-1 text-sm text-stone-700">
            {h.when}
            {h.location ? ` · ${h.location}` : ""}
          </p>
          <p className="mt-1 text-sm text-stone-600">
            {h.going} going · {h.maybe} maybe{h.myRsvp ? ` · ${ANSWER_WORDS[h.myRsvp]}` : ""}
          </p>
        </li>
      ))}
    </ul>
  );
}

export type CalendarAddresses = { download: string; webcal: string } | null;

/** "Add to calendar": subscribe (webcal:, the phone's calendar keeps it current) or download the .ics once. */
export function CalendarLinks({ calendar, needsToken }: { calendar: CalendarAddresses; needsToken: boolean }) {
  if (!calendar) {
    if (!needsToken) return null;
    return (
      <p className="text-sm text-stone-700" data-testid="calendar-token-note">
        To add this private club's hunts to your calendar, make your personal feed link in{" "}
        <Link to="/settings?tab=notifications" className="inline-flex min-h-11 items-center font-medium text-field-700 underline">
          Settings › Notifications
        </Link>
        .
      </p>
    );
  }
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="calendar-links">
      <span className="font-medium text-stone-800">Add to calendar:</span>
      <a href={calendar.webcal} className="btn-secondary min-h-11">
        Subscribe
      </a>
      <a href={calendar.download} download="hunts.ics" className="btn-secondary min-h-11">
        Download .ics
      </a>
    </p>
  );
}

export type HuntFormValues = { title: string; description: string; location: string; startsAt: string; endsAt: string; timeZone: string };

/**
 * The plan and edit form: a plain form that posts to its own page; with JavaScript the router sends it
 * without a reload. A refusal comes back with `values` as typed and each field's message.
 */
export function HuntForm({
  values,
  zones,
  errors,
  error,
  submitLabel,
  busy,
  create,
}: {
  values: HuntFormValues;
  zones: string[];
  errors: Record<string, string[] | undefined>;
  error: string | null;
  submitLabel: string;
  busy: boolean;
  create: boolean;
}) {
  const described = (name: string) => (errors[name]?.length ? { "aria-invalid": true, "aria-describedby": `hunt-${name}-error` } : {});
  return (
    <Form method="post" className="card space-y-4 p-5" data-testid="hunt-form">
      {create ? <IdempotencyKeyInput /> : null}
      {error && !Object.keys(errors).length ? <FieldErrors id="hunt-form-error" errors={[error]} /> : null}
      <Field id="hunt-title" label="Title" errors={errors.title}>
        <input
          id="hunt-title"
          name="title"
          defaultValue={values.title}
          maxLength={120}
          required
          className="input"
          {...described("title")}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="hunt-startsAt" label="Starts" errors={errors.startsAt}>
          <input
            id="hunt-startsAt"
            name="startsAt"
            type="datetime-local"
            defaultValue={values.startsAt}
            required
            className="input"
            {...described("startsAt")}
          />
        </Field>
        <Field id="hunt-endsAt" label="Ends (optional)" errors={errors.endsAt}>
          <input
            id="hunt-endsAt"
            name="endsAt"
            type="datetime-local"
            defaultValue={values.endsAt}
            className="input"
            {...described("endsAt")}
          />
        </Field>
      </div>
      <Field id="hunt-timeZone" label="Time zone" errors={errors.timeZone} hint="The times above are in this zone; it becomes the club's.">
        <select id="hunt-timeZone" name="timeZone" defaultValue={values.timeZone} className="input" {...described("timeZone")}>
          {zones.map((z) => (
            <option key={z} value={z}>
              {z.replace("_", " ")}
            </option>
          ))}
        </select>
      </Field>
      <Field id="hunt-location" label="Place (optional)" errors={errors.location}>
        <input
          id="hunt-location"
          name="location"
          defaultValue={values.location}
          maxLength={100}
          placeholder="North gate"
          className="input"
          {...described("location")}
        />
      </Field>
      <Field id="hunt-description" label="Details (optional)" errors={errors.description}>
        <textarea
          id="hunt-description"
          name="description"
          defaultValue={values.description}
          maxLength={2000}
          rows={4}
          className="input"
          {...described("description")}
        />
      </Field>
      <button type="submit" className="btn-primary min-h-11" disabled={busy}>
        {busy ? "Saving..." : submitLabel}
      </button>
    </Form>
  );
}
