import { useState } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { TapToLoadImage, useDataSaver } from "~/components/ui/data-saver";
import type { UploadedFile } from "~/schemas/media-options";
import { imageSources, SIZES } from "~/utils/media/image-sources";

/**
 * SPEC.md §2: a post's uploaded media on its card and its page, at most 500 px high. Images carry
 * their size (no layout shift) and a srcset of WebP variants only (utils/media/image-sources.ts), so no
 * phone ever downloads the full-size picture, and load lazily; on a card an image opens the post
 * (`postHref`), on the post page it opens the original in a new tab (the one way to fetch it).
 * With data saver on, an image is a tap-to-load placeholder. Video and audio use the
 * browser's players with preload="none": nothing large downloads until the member presses play.
 * A graphic post's media (`sensitive`) wait behind "Show photo" for visitors and members who blur them.
 */
export function PostMedia({
  files,
  variant,
  postHref,
  sensitive,
}: {
  files: UploadedFile[] | null | undefined;
  variant: "card" | "page";
  /** The post's page, which a card's image opens. */
  postHref?: string;
  sensitive?: boolean;
}) {
  const blur = useBlurGraphic();
  const [open, setOpen] = useState(false);
  if (!files?.length) return null;
  const covered = sensitive && blur;
  const items = files.map((file) => (
    <MediaItem
      key={file.url}
      file={file}
      linkImage={variant === "page"}
      postHref={variant === "card" ? postHref : undefined}
      wait={covered && !open}
    />
  ));
  // A graphic post's media behind "Show photo" (ADR 0091): a <details>, the same with JavaScript off
  // and on, whose words and looks are CSS (.graphic-cover). Closed, or open without JavaScript, its
  // pictures are tap-to-load boxes with no address of an image in the page (a browser without
  // scripts loads even lazy images it does not show); opened with JavaScript, they are drawn in place.
  return (
    <div className="space-y-3" data-testid="post-media">
      {covered ? (
        <details className="graphic-cover" onToggle={(event) => setOpen(event.currentTarget.open)}>
          <summary>Show photo</summary>
          {items}
        </details>
      ) : (
        items
      )}
    </div>
  );
}

/**
 * Graphic photos (CONTRACT.md §14, ADR 0091): whether this page covers a sensitive post's media.
 * Visitors always; members unless they turned Settings › Privacy › "Blur graphic photos" off.
 */
export const useBlurGraphic = (): boolean => (useRouteLoaderData("root") as { blurGraphic?: boolean } | undefined)?.blurGraphic ?? true;

function MediaItem({ file, linkImage, postHref, wait }: { file: UploadedFile; linkImage: boolean; postHref?: string; wait?: boolean }) {
  const dataSaver = useDataSaver();
  if (file.type === "image" && (dataSaver || wait)) {
    return (
      <TapToLoadImage
        note={wait ? "Graphic photo" : undefined}
        image={file}
        name={file.name}
        width={file.width}
        height={file.height}
        className="block h-auto max-h-[500px] w-full rounded-md bg-stone-100 object-contain"
      />
    );
  }
  if (file.type === "image") {
    const image = (
      <img
        {...imageSources(file, SIZES.post)}
        width={file.width ?? undefined}
        height={file.height ?? undefined}
        alt={file.name}
        loading="lazy"
        decoding="async"
        // Full width up to the picture's own width, height from its ratio, capped at 500 px
        // (a tall picture is letterboxed rather than cropped).
        style={file.width ? { maxWidth: `min(100%, ${file.width}px)` } : undefined}
        className="block h-auto max-h-[500px] w-full rounded-md bg-stone-100 object-contain"
        data-testid="post-image"
      />
    );
    if (postHref) {
      return (
        <Link to={postHref} className="block" title="Open the post" data-testid="post-image-link">
          {image}
        </Link>
      );
    }
    if (!linkImage) return image;
    return (
      <a href={file.url} target="_blank" rel="noopener noreferrer" className="block" title={`View the original of ${file.name}`}>
        {image}
      </a>
    );
  }
  if (file.type === "video") {
    return (
      <video
        controls
        preload="none"
        playsInline
        src={file.url}
        aria-label={file.name}
        className="block max-h-[500px] w-full rounded-md bg-black"
        data-testid="post-video"
      >
        <a href={file.url}>{file.name}</a>
      </video>
    );
  }
  return (
    <figure className="rounded-md border border-stone-200 bg-stone-50 p-3" data-testid="post-audio">
      <figcaption className="mb-2 truncate text-sm font-medium text-stone-700">{file.name}</figcaption>
      <audio controls preload="none" src={file.url} className="w-full">
        <a href={file.url}>{file.name}</a>
      </audio>
    </figure>
  );
}
