import type { InputHTMLAttributes } from "react";

/**
 * "Graphic photo" on the create and edit forms (CONTRACT.md §14, docs/decisions/0091-graphic-photos.md):
 * the post's `sensitive` mark, a box whose label is a 44 px target. A file of its own, so the pages
 * that only show posts do not carry it.
 */
export function GraphicPhotoField(input: InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="flex min-h-11 items-center gap-3 text-sm font-medium text-bark-900">
      <input {...input} type="checkbox" value="on" className="h-5 w-5" data-testid="graphic-photo-input" />
      Graphic photo (its pictures wait behind “Show photo”)
    </label>
  );
}
