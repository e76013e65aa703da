import { useEffect, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { TapToLoadImage, useDataSaver } from "~/components/ui/data-saver";
import { GraphicPhotoCover, SHOW_PHOTOS_PARAM, useBlurGraphic } from "./graphic-photo";
import type { UploadedFile } from "~/schemas/media-options";
import { imageSources, SIZES } from "~/utils/media/image-sources";

/**
 * SPEC.md §2: a post's uploaded media on its card and its page, at most 500 px high. Images carry
 * their size (no layout shift) and a srcset of WebP variants only (utils/media/image-sources.ts), so no
 * phone ever downloads the full-size picture, and load lazily; on a card an image opens the post
 * (`postHref`), on the post page it opens the original in a new tab (the one way to fetch it).
 * With data saver on, an image is a tap-to-load placeholder. Video and audio use the
 * browser's players with preload="none": nothing large downloads until the member presses play.
 * A graphic post's media (`sensitive`) wait behind "Show photo" for visitors and members who blur
 * them (graphic-photo.tsx); the post page's `?photos=show` draws them (the link without JavaScript).
 */
export function PostMedia({
  files,
  variant,
  postId,
  sensitive = false,
}: {
  files: UploadedFile[] | null | undefined;
  variant: "card" | "page";
  /** The post: a card's image opens its page. */
  postId: number;
  sensitive?: boolean;
}) {
  const blur = useBlurGraphic();
  const { search } = useLocation();
  const [shown, setShown] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // Revealed in place: the pictures take the focus the "Show photo" link had.
  useEffect(() => {
    if (shown) box.current?.focus({ preventScroll: true });
  }, [shown]);
  if (!files?.length) return null;
  const asked = shown || (variant === "page" && new URLSearchParams(search).get(SHOW_PHOTOS_PARAM) === "show");
  const postHref = variant === "card" ? `/post/${postId}` : undefined;
  if (sensitive && blur && !asked) {
    const first = files[0]!;
    return (
      <div id={`post-${postId}-media`} data-testid="post-media">
        <GraphicPhotoCover
          postId={postId}
          count={files.length}
          ratio={first.width && first.height ? `${first.width} / ${first.height}` : undefined}
          onShow={() => setShown(true)}
        />
      </div>
    );
  }
  return (
    <div
      id={`post-${postId}-media`}
      className="space-y-3"
      data-testid="post-media"
      ref={box}
      tabIndex={shown ? -1 : undefined}
    >
      {files.map((file) => (
        <MediaItem key={file.url} file={file} linkImage={variant === "page"} postHref={postHref} />
      ))}
    </div>
  );
}

function MediaItem({ file, linkImage, postHref }: { file: UploadedFile; linkImage: boolean; postHref?: string }) {
  const dataSaver = useDataSaver();
  if (file.type === "image" && dataSaver) {
    return (
      <TapToLoadImage
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
