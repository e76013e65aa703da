import { Form } from "react-router";
import { TitledSection } from "~/components/ui/titled-section";
import { useIsPending } from "~/utils/remix";

/**
 * Settings › Privacy › Blur graphic photos (CONTRACT.md §14): a plain form (intent `blur-graphic`)
 * that works without JavaScript. On (the default), posts marked as graphic show their pictures only
 * after "Show photo", and nothing of them loads before.
 */
export function GraphicPhotoSettings({ on, action }: { on: boolean; action: string }) {
  const busy = useIsPending({ intent: "blur-graphic" });
  return (
    <TitledSection id="graphic-photos" title="Graphic photos" className="space-y-3" testId="graphic-photo-settings">
      <p className="text-sm text-stone-600">
        Posts marked as a graphic photo (a harvest, blood) show a “Show photo” box instead of their pictures, and load nothing until you tap it.
      </p>
      <Form method="post" action={action} className="flex flex-wrap items-center gap-4">
        <label className="flex min-h-11 items-center gap-2 text-sm text-stone-800">
          <input type="checkbox" name="blurGraphic" value="on" defaultChecked={on} key={String(on)} className="h-5 w-5" />
          Blur graphic photos
        </label>
        <button type="submit" name="intent" value="blur-graphic" className="btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save"}
        </button>
      </Form>
    </TitledSection>
  );
}
