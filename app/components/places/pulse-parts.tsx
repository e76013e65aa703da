import { SelectShowForm } from "~/components/ui/select-show-form";
import { RUT_PHASE_LABELS, type RutPhase } from "~/schemas/field-report-options";
import { dayText } from "~/utils/hunt-day-format";

/** What the pulse's pages share (docs/decisions/0094-the-pulse.md): the words for a phase, a window, a day. */

export const rutPhaseText = (phase: RutPhase | null) => (phase ? RUT_PHASE_LABELS[phase] : "None given");

export const windowText = (days: number) => (days === 1 ? "today" : `the last ${days} days`);

/** "Sat, Nov 28" from an instant, in UTC (the window's calendar): the same text on the server and in the browser. */
export const lastText = (iso: string) => dayText(iso.slice(0, 10));

const DAY_CHOICES = Array.from({ length: 30 }, (_, i) => ({ value: String(i + 1), label: i === 0 ? "1 day (today)" : `${i + 1} days` }));

/** The window chooser: a plain GET form (JavaScript off works the same). */
export function DaysForm({ action, days }: { action: string; days: number }) {
  return (
    <SelectShowForm
      action={action}
      id="pulse-days"
      name="days"
      label="Reports seen in the last"
      value={String(days)}
      options={DAY_CHOICES}
      testId="pulse-days-form"
    />
  );
}
