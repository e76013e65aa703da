/**
 * Where a toast may sit without covering a control (issue 14, docs/decisions/0029-toasts-beside-controls.md).
 * Pure geometry, so it is tested on its own; the Toaster measures the page and calls it.
 */
export type Box = { left: number; right: number; top: number; bottom: number };
/** A control's box; `typing` when it is where a member writes: a field, its label, or the button that sends it. */
export type ControlBox = Box & { typing?: boolean };

/** What counts as a control: anything a member can press, type in or focus. */
export const CONTROLS =
  'a[href], button, input:not([type="hidden"]):not(.sr-only), select, textarea, summary, label[for], [role="button"], [tabindex]:not([tabindex="-1"])';

/** Where a member writes: covering one of these (or the button sending it) would hide what they are typing. */
export const FIELDS =
  'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]):not([type="submit"]):not([type="button"]), select, textarea, [contenteditable="true"]';

const GAP = 8;

/**
 * The top edge (viewport y) for a toast `height` tall spanning `span` horizontally, between `min`
 * (under the top bar) and `max` (its lowest place, above the window's bottom edge). In order:
 * - the bottom edge, then the top edge, where it covers no control;
 * - the bottom edge, then the top edge, where it covers no field nor a button that sends one (a
 *   toast belongs at an edge of a phone's screen, ux-2 N12; a link or a card's button under it is
 *   free again when it goes, is swiped away or the page scrolls);
 * - the lowest place between the edges that covers no control.
 * Null when none is free (a page full of fields): the caller keeps the lowest place.
 */
export function clearTop(
  height: number,
  span: Pick<Box, "left" | "right">,
  controls: ControlBox[],
  min: number,
  max: number,
): number | null {
  const inColumn = controls.filter((c) => c.left < span.right && span.left < c.right && c.bottom > min && c.top < max + height);
  const clear = (y: number, under: ControlBox[]) => under.every((c) => c.bottom <= y || c.top >= y + height);
  const typing = inColumn.filter((c) => c.typing);
  const edges = [max, min].filter((y) => y >= min);
  const atEdge = edges.find((y) => clear(y, inColumn)) ?? edges.find((y) => clear(y, typing));
  if (atEdge !== undefined) return atEdge;
  const candidates = inColumn
    .flatMap((c) => [c.top - GAP - height, c.bottom + GAP])
    .filter((y) => y >= min && y <= max)
    .sort((a, b) => b - a);
  return candidates.find((y) => clear(y, inColumn)) ?? null;
}

/** Whether `element` is where a member writes, or sends what they wrote (`FIELDS`). */
function isTyping(element: Element): boolean {
  if (element.matches(FIELDS)) return true;
  if (element instanceof HTMLLabelElement) return Boolean(element.control?.matches(FIELDS));
  if (element instanceof HTMLButtonElement || element instanceof HTMLInputElement) {
    return Boolean(element.form && [...element.form.elements].some((field) => field.matches(FIELDS)));
  }
  return false;
}

/** The boxes of the page's visible controls (outside `except`, the toast itself). */
export function controlBoxes(except: Element): ControlBox[] {
  const boxes: ControlBox[] = [];
  for (const element of document.querySelectorAll(CONTROLS)) {
    if (except.contains(element)) continue;
    if (!element.checkVisibility({ visibilityProperty: true })) continue;
    const r = element.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight) {
      boxes.push({ left: r.left, right: r.right, top: r.top, bottom: r.bottom, typing: isTyping(element) });
    }
  }
  return boxes;
}
