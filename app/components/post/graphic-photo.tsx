import { useRouteLoaderData } from "react-router";
import type { InputHTMLAttributes } from "react";

/**
 * Graphic photos (CONTRACT.md §14, docs/decisions/0091-graphic-photos.md): whether this page hides a
 * sensitive post's media behind "Show photo". Visitors always; members unless they turned Settings ›
 * Privacy › "Blur graphic photos" off (the root loader decides, root-data.server.ts).
 */
export function useBlurGraphic(): boolean {
  const root = useRouteLoaderData("root") as { blurGraphic?: boolean } | undefined;
  return root?.blurGraphic ?? true;
}

/** The search parameter that asks the post page for a graphic post's media (the "Show photo" link without JavaScript). */
export const SHOW_PHOTOS_PARAM = "photos";

/** Where "Show photo" leads without JavaScript: the post's page with its media drawn, at them. */
export const showPhotosHref = (postId: number) => `/post/${postId}?${SHOW_PHOTOS_PARAM}=show#post-${postId}-media`;

/**
 * A graphic post's media, not loaded: a dark box that says what waits and a "Show photo" link. The
 * page holds no address of the pictures (no <img>, no srcset, no <video src>), so nothing of them is
 * fetched, Save-Data or not. Without JavaScript the link opens the post's page drawn with its media;
 * with it, `onShow` swaps them in place.
 */
export function GraphicPhotoCover({
  postId,
  count,
  ratio,
  onShow,
}: {
  postId: number;
  count: number;
  /** The first picture's width / height, so the box keeps its place. */
  ratio?: string;
  onShow: () => void;
}) {
  const label = count > 1 ? `Show photos (${count})` : "Show photo";
  return (
    <div
      style={ratio ? { aspectRatio: ratio } : undefined}
      className="flex max-h-[500px] min-h-[9rem] w-full flex-col items-center justify-center gap-2 rounded-md bg-stone-800 p-4 text-center"
      data-testid="graphic-photo"
    >
      <p className="font-semibold text-white">Graphic photo</p>
      <p className="text-sm text-stone-200">Marked as graphic. Nothing is loaded until you ask.</p>
      <a
        href={showPhotosHref(postId)}
        onClick={(event) => {
          event.preventDefault();
          onShow();
        }}
        className="btn-secondary min-h-11"
        data-testid="show-photo"
      >
        {label}
      </a>
    </div>
  );
}

/** "Graphic photo" on the create and edit forms: a box and what it does. */
export function GraphicPhotoField(input: InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium text-bark-900">
        <input {...input} type="checkbox" value="on" className="h-5 w-5 accent-blaze-500" data-testid="graphic-photo-input" />
        Graphic photo
      </label>
      <p className="text-sm text-stone-600">Blood or a field-dressed deer: the pictures wait behind “Show photo” for visitors and members who ask.</p>
    </div>
  );
}
