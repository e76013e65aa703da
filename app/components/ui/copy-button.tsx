import { showToast } from "~/components/layout/toaster";
import { useHydrated } from "~/utils/hydrated";

/**
 * Copies `text` to the clipboard, with a toast either way. Drawn only once the page runs scripts:
 * without them the text sits in a read-only field the member selects and copies.
 */
export function CopyButton({ text, label, copied }: { text: string; label?: string; copied: { title: string; description: string } }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      showToast({ ...copied, type: "success" });
    } catch {
      showToast({ title: "Failed to copy", description: "Could not copy link to clipboard", type: "error" });
    }
  };
  return (
    <button type="button" className="btn-secondary" onClick={copy} aria-label={label}>
      Copy
    </button>
  );
}
