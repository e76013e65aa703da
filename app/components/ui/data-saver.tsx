import { useRouteLoaderData } from "react-router";
import { useState } from "react";
import { formatBytes, smallestImage, type ImageLike } from "~/utils/media/image-sources";

/**
 * Data saver (CONTRACT.md §6, docs/decisions/0036-right-sized-images-and-data-saver.md): on when the
 * request said `Save-Data: on` or the member turned it on (the root loader decides).
 */
export function useDataSaver(): boolean {
  const root = useRouteLoaderData("root") as { dataSaver?: boolean } | undefined;
  return Boolean(root?.dataSaver);
}

/**
 * An image not loaded yet: a box the picture's shape showing what a tap costs. The box is a link to
 * the smallest variant, so without JavaScript a tap opens that file; with JavaScript the tap swaps
 * it in place. Nothing of the picture is fetched before the tap.
 */
export function TapToLoadImage({
  image,
  name,
  width,
  height,
  className = "",
  note = "Data saver is on",
}: {
  /** Why it waits (a graphic photo waits too: components/post/media.tsx). */
  note?: string;
  image: ImageLike;
  name: string;
  width?: number | null;
  height?: number | null;
  className?: string;
}) {
  const [loaded, setLoaded] = useState(false);
  const { url, size } = smallestImage(image);
  const ratio = width && height ? { aspectRatio: `${width} / ${height}` } : undefined;
  if (loaded) {
    return <img src={url} alt={name} decoding="async" style={ratio} className={className} data-testid="post-image" />;
  }
  return (
    <a
      href={url}
      onClick={(event) => {
        event.preventDefault();
        setLoaded(true);
      }}
      style={ratio}
      className="flex max-h-[500px] min-h-[6rem] w-full flex-col items-center justify-center gap-1 rounded-md border border-dashed border-stone-300 bg-stone-100 p-4 text-center text-sm text-stone-700 hover:bg-stone-200"
      data-testid="image-placeholder"
    >
      <span className="font-semibold text-bark-900">Tap to load image</span>
      <span className="max-w-full truncate">
        {name}
        {size !== null ? ` · ${formatBytes(size)}` : ""}
      </span>
      <span className="text-xs text-stone-500">{note}</span>
    </a>
  );
}
