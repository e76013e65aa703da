import { Form } from "react-router";
import { TitledSection } from "~/components/ui/titled-section";
import { useIsPending } from "~/utils/remix";

/**
 * Settings › Privacy › Data saver (CONTRACT.md §6): a plain form (intent `data-saver`) that works
 * without JavaScript. On, every page shows images as tap-to-load placeholders with their size, and
 * video and audio load nothing until played. `browserAsks`: this request already said Save-Data: on
 * (a phone's lite mode), which does the same whatever the setting is. The same form carries "Blur
 * graphic photos" (on by default): posts marked as graphic keep their pictures behind "Show photo".
 */
export function DataSaverSettings({
  on,
  browserAsks,
  blurGraphic,
  action,
}: {
  on: boolean;
  browserAsks: boolean;
  /** "Blur graphic photos" (CONTRACT.md §14, ADR 0091): the same form, so the page carries one more box and no more. */
  blurGraphic: boolean;
  action: string;
}) {
  const busy = useIsPending({ intent: "data-saver" });
  return (
    <TitledSection id="data-saver" title="Data saver" className="space-y-3" testId="data-saver-settings">
      <p className="text-sm text-stone-600">
        Show pictures as tap-to-load boxes with their size, and load no video or audio until you press play. For weak or metered signal.
      </p>
      <p className="text-sm font-medium text-stone-800" data-testid="data-saver-state">
        Data saver is {on ? "on" : "off"}.
        {browserAsks && !on ? " Your browser is asking to save data right now, so pictures wait for a tap anyway." : ""}
      </p>
      <Form method="post" action={action} className="flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2 text-sm text-stone-800">
          <input type="checkbox" name="dataSaver" value="on" defaultChecked={on} key={String(on)} className="h-4 w-4" />
          Use data saver on this account
        </label>
        <label className="flex min-h-11 items-center gap-2 text-sm text-stone-800">
          <input type="checkbox" name="blurGraphic" value="on" defaultChecked={blurGraphic} className="h-4 w-4" />
          Blur graphic photos
        </label>
        <button type="submit" name="intent" value="data-saver" className="btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save"}
        </button>
      </Form>
    </TitledSection>
  );
}
