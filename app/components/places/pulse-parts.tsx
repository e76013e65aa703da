import { Form } from "react-router";
import { dayText } from "~/utils/hunt-day-format";

/** What the pulse's pages share (docs/decisions/0094-the-pulse.md): the words for a phase, a window, a day. */

export const RUT_PHASE_NAMES: Record<string, string> = {
  pre: "Pre-rut",
  seeking: "Seeking",
  chasing: "Chasing",
  lockdown: "Lockdown",
  post: "Post-rut",
};

export const rutPhaseText = (phase: string | null) => (phase ? (RUT_PHASE_NAMES[phase] ?? phase) : "None given");

export const windowText = (days: number) => (days === 1 ? "today" : `the last ${days} days`);

/** "Sat, Nov 28" from an instant, in UTC (the window's calendar): the same text on the server and in the browser. */
export const lastText = (iso: string) => dayText(iso.slice(0, 10));

const DAY_CHOICES = Array.from({ length: 30 }, (_, i) => i + 1);

/** The window chooser: a plain GET form (JavaScript off works the same). */
export function DaysForm({ action, days }: { action: string; days: number }) {
  return (
    <Form method="get" action={action} className="flex flex-wrap items-end gap-2" data-testid="pulse-days-form">
      <div>
        <label htmlFor="pulse-days" className="label">
          Reports seen in the last
        </label>
        <select id="pulse-days" name="days" defaultValue={String(days)} key={days} className="input min-h-11">
          {DAY_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n === 1 ? "1 day (today)" : `${n} days`}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn-secondary min-h-11">
        Show
      </button>
    </Form>
  );
}
