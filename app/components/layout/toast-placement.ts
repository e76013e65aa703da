/**
 * Where a toast may sit without covering a control (issue 14, docs/decisions/0029-toasts-beside-controls.md).
 * Pure geometry, so it is tested on its own; the Toaster measures the page and calls it.
 */
export type Box = { left: number; right: number; top: number; bottom: number };

/** What counts as a control: anything a member can press, type in or focus. */
export const CONTROLS =
  'a[href], button, input:not([type="hidden"]):not(.sr-only), select, textarea, summary, label[for], [role="button"], [tabindex]:not([tabindex="-1"])';

const GAP = 8;

/**
 * The top edge (viewport y) for a toast `height` tall spanning `span` horizontally, between `min`
 * (under the top bar) and `max` (its lowest place, above the window's bottom edge), so that it
 * overlaps none of `controls`; the lowest such place, since a toast belongs near the bottom. Null
 * when no place is free (a page full of controls): the caller keeps the lowest place.
 */
export function clearTop(height: number, span: Pick<Box, "left" | "right">, controls: Box[], min: number, max: number): number | null {
  const inColumn = controls.filter((c) => c.left < span.right && span.left < c.right && c.bottom > min && c.top < max + height);
  const candidates = [max, min, ...inColumn.flatMap((c) => [c.top - GAP - height, c.bottom + GAP])]
    .filter((y) => y >= min && y <= max)
    .sort((a, b) => b - a);
  return candidates.find((y) => inColumn.every((c) => c.bottom <= y || c.top >= y + height)) ?? null;
}

/** The boxes of the page's visible controls (outside `except`, the toast itself). */
export function controlBoxes(except: Element): Box[] {
  const boxes: Box[] = [];
  for (const element of document.querySelectorAll(CONTROLS)) {
    if (except.contains(element)) continue;
    if (!element.checkVisibility({ visibilityProperty: true })) continue;
    const r = element.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight) boxes.push(r);
  }
  return boxes;
}
