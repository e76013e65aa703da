import type { MediaVariant } from "~/schemas/media-options";

/**
 * Which file of an uploaded image the browser loads: the one helper behind every `<img>` of an
 * upload (post media, avatars, club images) and data saver's tap-to-load
 * (docs/decisions/0036-right-sized-images-and-data-saver.md).
 *
 * `srcset` lists the WebP variants only, never the full-size picture, so no width or pixel ratio
 * ever picks the original (a 3.5 MB JPEG where a 320 KB WebP does). The original is reached only by
 * an explicit "view original" link.
 */

/** Variant `t` is the picture at most `t` px wide (media-processing.server.ts makes them). */
export const VARIANT_TARGETS = [480, 1080, 1440] as const;

/** The stored key of variant `target` of the image whose key (without extension) is `base`. */
export const variantKey = (base: string, target: number) => `${base}-${target}.webp`;

/** An upload's address: `…/YYYY/MM/<32 hex>.<ext>` (storeUpload's keys, local or S3). */
const UPLOAD_URL = /^(.*\/\d{4}\/\d{2}\/[0-9a-f]{32})\.(?:jpg|png|webp|gif|avif)$/;

/** An image the page shows: a stored file with its variants, or only an address (avatars, club images). */
export type ImageLike = { url: string; size?: number | null; variants?: MediaVariant[] | null } | string;

/**
 * Sizes for the places images show. Post media fill the content column (720 px from the md
 * breakpoint; the page's and card's padding below it); a club image the width of its card.
 */
export const SIZES = {
  post: "(min-width: 768px) 720px, calc(100vw - 2rem)",
  club: "(min-width: 768px) 50vw, 100vw",
  /** An avatar or thumbnail shown `px` CSS pixels wide. */
  fixed: (px: number) => `${px}px`,
} as const;

/**
 * The variants of an image, smallest first: a stored file's own, or, for a bare address of an
 * upload, the ones every upload has by its key (their nominal widths; a small picture's are
 * narrower, which only makes the browser's pick cheaper). Empty for anything else.
 */
export function variantsOf(image: ImageLike): MediaVariant[] {
  if (typeof image !== "string") return image.variants?.length ? image.variants : [];
  const base = UPLOAD_URL.exec(image)?.[1];
  if (!base) return [];
  return VARIANT_TARGETS.map((target) => ({ width: target, height: 0, url: variantKey(base, target) }));
}

/** `src`, `srcSet` and `sizes` for an `<img>`: the largest variant as `src` (browsers without srcset). */
export function imageSources(image: ImageLike, sizes: string): { src: string; srcSet?: string; sizes?: string } {
  const url = typeof image === "string" ? image : image.url;
  const variants = variantsOf(image);
  if (!variants.length) return { src: url };
  return {
    src: variants[variants.length - 1]!.url,
    srcSet: variants.map((v) => `${v.url} ${v.width}w`).join(", "),
    sizes,
  };
}

/** What data saver loads on a tap: the smallest variant (the picture itself when it has none), with its size when known. */
export function smallestImage(image: ImageLike): { url: string; size: number | null } {
  const smallest = variantsOf(image)[0];
  if (smallest) return { url: smallest.url, size: smallest.size ?? null };
  return { url: typeof image === "string" ? image : image.url, size: typeof image === "string" ? null : (image.size ?? null) };
}

/** "34 KB", "1.2 MB": a file's size as a member on a metered link reads it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
