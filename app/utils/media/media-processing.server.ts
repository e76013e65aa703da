import os from "node:os";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import type { MediaKind } from "#db/schema";
import { AppError, tooLarge, unsupportedMedia } from "../errors";
import { env } from "../env.server";
import { contentTypeForKey } from "./storage.server";
import { VARIANT_TARGETS } from "./image-sources";
import { AbandonedError, WorkQueue } from "./work-queue.server";

/**
 * What an upload is, decided from its own first bytes (never its name or the browser's claim), and
 * what is stored for images: the picture re-encoded without any metadata (EXIF, GPS, XMP, IPTC),
 * orientation applied first, plus smaller WebP variants for `srcset`
 * (docs/decisions/0008-media-storage-and-processing.md).
 */

/** How many leading bytes the sniffer looks at (file-type needs ~4 KB; ID3 tags can push audio further). */
export const SNIFF_BYTES = 64 * 1024;

export type SniffedFormat = {
  kind: MediaKind;
  /** Extension of the stored object; its content type follows from it (storage.server.ts). */
  ext: string;
  contentType: string;
};

/**
 * The formats browsers can show or play. Keys are file-type's MIME answers. Other images (HEIC,
 * BMP, PSD …), other audio and video (FLV, AMR, MIDI …) and everything else are refused with 415.
 */
const ACCEPTED: Record<string, { kind: MediaKind; ext: string }> = {
  "image/jpeg": { kind: "image", ext: "jpg" },
  "image/png": { kind: "image", ext: "png" },
  "image/webp": { kind: "image", ext: "webp" },
  "image/gif": { kind: "image", ext: "gif" },
  "image/avif": { kind: "image", ext: "avif" },
  "image/tiff": { kind: "image", ext: "tif" },
  "video/mp4": { kind: "video", ext: "mp4" },
  "video/x-m4v": { kind: "video", ext: "m4v" },
  "video/webm": { kind: "video", ext: "webm" },
  "video/quicktime": { kind: "video", ext: "mov" },
  "video/ogg": { kind: "video", ext: "ogv" },
  "video/x-matroska": { kind: "video", ext: "mkv" },
  "video/3gpp": { kind: "video", ext: "3gp" },
  "audio/mpeg": { kind: "audio", ext: "mp3" },
  "audio/mp4": { kind: "audio", ext: "m4a" },
  "audio/x-m4a": { kind: "audio", ext: "m4a" },
  "audio/aac": { kind: "audio", ext: "aac" },
  "audio/ogg": { kind: "audio", ext: "ogg" },
  "audio/opus": { kind: "audio", ext: "opus" },
  "audio/wav": { kind: "audio", ext: "wav" },
  "audio/vnd.wave": { kind: "audio", ext: "wav" },
  "audio/x-wav": { kind: "audio", ext: "wav" },
  "audio/flac": { kind: "audio", ext: "flac" },
  "audio/x-flac": { kind: "audio", ext: "flac" },
};

export const UNSUPPORTED_MESSAGE = "Unsupported file type. Upload an image (JPEG, PNG, WebP, GIF, AVIF), a video or an audio file.";

/** Throws 415 for anything that is not an image, video or audio format the site can show. */
export async function sniffFormat(head: Uint8Array): Promise<SniffedFormat> {
  const detected = head.byteLength ? await fileTypeFromBuffer(head) : undefined;
  const accepted = detected ? ACCEPTED[detected.mime] : undefined;
  if (!detected || !accepted) {
    if (detected?.mime.startsWith("image/")) {
      throw unsupportedMedia(`This image format (${detected.ext.toUpperCase()}) is not supported. Upload a JPEG, PNG, WebP, GIF or AVIF.`);
    }
    throw unsupportedMedia(UNSUPPORTED_MESSAGE);
  }
  // TIFF is not shown by browsers: it is converted to JPEG below, so the stored object is a .jpg.
  const ext = accepted.ext === "tif" ? "jpg" : accepted.ext;
  return { kind: accepted.kind, ext, contentType: contentTypeForKey(`x.${ext}`) };
}

/**
 * Variant widths for `srcset` (docs/decisions/0036-right-sized-images-and-data-saver.md). Variant
 * `t` is the picture at most `t` px wide, never enlarged: every image has all three (a small one's
 * are the same width), so a phone's pick is always a WebP variant and never the full-size picture,
 * and the 480 one, the smallest, is what data saver loads on a tap.
 */
export const VARIANT_WIDTHS = VARIANT_TARGETS;
export type VariantTarget = (typeof VARIANT_WIDTHS)[number];

/** The width variant `target` has for a picture `width` px wide. */
export const variantWidth = (target: number, width: number) => Math.min(target, width);

/** The "full size" image is capped so a 100-megapixel photo does not become a 60 MB page asset. */
export const MAX_IMAGE_EDGE = 4096;
/** Decompression-bomb guard: refuse images over 100 megapixels before decoding them. */
const MAX_INPUT_PIXELS = 100_000_000;

/**
 * What one image may cost (docs/decisions/0021-media-work.md). Animations are checked from the
 * header, before a frame is decoded: every frame is a full picture to decode and re-encode, so a
 * tiny GIF of many big frames is the costly upload, not a big photo.
 */
export const IMAGE_LIMITS = {
  /** Frames of an animated GIF or WebP. */
  maxFrames: 200,
  /** Pixels of all frames together (width × height × frames). */
  maxAnimationPixels: 50_000_000,
  /** Wall-clock seconds for all of one file's encoding (the picture and its variants). */
  timeoutSeconds: 15,
} as const;

// libvips would start a thread per core for each image; one per job leaves the other cores to
// the pages. Jobs at once: half the cores (one on a 2-core machine); a few more may wait, each
// member's in turn (docs/decisions/0052-fair-image-queue.md).
sharp.concurrency(1);
const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;

/**
 * The image queue's shares (security-2 N7, N10; docs/decisions/0052-fair-image-queue.md). A free
 * place goes to the waiting members in turn, so another member's upload waits for at most the job
 * running now, however many one member sent. One member holds at most `perMember` places (running
 * and waiting): the editor sends a post's photos in parallel and they finish together, so the share
 * holds a normal post's worth; past it, that member alone gets 429. At most `maxWaiting` wait in
 * all. A member's jobs may take `budgetSeconds` of encoding in a burst, given back at
 * `refillPerSecond`. A job waits at most `maxWaitMs`: what is left of the server's idle timeout
 * after the encoding's own time limit and a margin, so a queued upload gets its 503 and
 * Retry-After before the connection is closed without an answer.
 */
export const IMAGE_QUEUE = {
  concurrency: Math.max(1, Math.floor(cores / 2)),
  perMember: 8,
  maxWaiting: 32,
  maxWaitMs: Math.max(1_000, env.IDLE_TIMEOUT_MS - IMAGE_LIMITS.timeoutSeconds * 1000 - 3_000),
  budgetSeconds: 60,
  refillPerSecond: 0.1,
} as const;

export const imageQueue = new WorkQueue({
  concurrency: IMAGE_QUEUE.concurrency,
  maxWaiting: IMAGE_QUEUE.maxWaiting,
  retryAfter: 15,
  busyMessage: "The server is busy with other images right now. Try again in a few seconds.",
  perKey: IMAGE_QUEUE.perMember,
  keyRetryAfter: 10,
  keyBusyMessage: "Your other images are still being processed. Try this one again in a moment.",
  maxWaitMs: IMAGE_QUEUE.maxWaitMs,
  budget: { seconds: IMAGE_QUEUE.budgetSeconds, refillPerSecond: IMAGE_QUEUE.refillPerSecond },
});

/** Whose image this is and whether its request is still there (storeUpload passes both). */
export type ImageWork = {
  /** The member the upload is for: the queue's share and budget are per member. */
  owner?: number;
  /** The request's signal: a job whose client is gone is dropped, and its encoding stopped between steps. */
  signal?: AbortSignal;
};

export type EncodedVariant = { target: VariantTarget; data: Buffer; width: number; height: number; ext: "webp"; contentType: "image/webp" };

export type ProcessedImage = {
  main: { data: Buffer; width: number; height: number; ext: string; contentType: string };
  variants: EncodedVariant[];
};

/**
 * Re-encodes an image with every piece of metadata removed. sharp writes no EXIF, XMP or IPTC
 * unless asked (`withMetadata`/`keepExif`, never called here); `rotate()` first bakes the EXIF
 * orientation into the pixels so the picture still stands the right way up without it.
 * Animations over IMAGE_LIMITS are refused (413) from the header alone; the encoding waits its
 * turn in `imageQueue` (429 when the owner's share is full, 503 when the waiting list is full or the
 * wait too long), is dropped when `signal` aborts (AbandonedError), and is given up after
 * `timeoutSeconds` (413). Nothing is returned, so nothing is stored, when it is refused.
 */
export async function processImage(
  input: string | Buffer,
  format: SniffedFormat,
  { timeoutSeconds = IMAGE_LIMITS.timeoutSeconds, owner, signal }: { timeoutSeconds?: number } & ImageWork = {},
): Promise<ProcessedImage> {
  try {
    const probe = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    const frames = probe.pages ?? 1;
    const animated = frames > 1 && (format.ext === "gif" || format.ext === "webp");
    if (animated) assertAnimationLimits(frames, probe.width ?? 0, probe.pageHeight ?? probe.height ?? 0);
    return await imageQueue.run(() => encodeImage(input, format, animated, Date.now() + timeoutSeconds * 1000, signal), {
      key: owner === undefined ? "" : `member:${owner}`,
      signal,
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) throw tooLarge("This image has too many pixels (the limit is 100 megapixels).");
    if (/timeout/i.test(message)) {
      throw tooLarge(`This image took too long to process (the limit is ${timeoutSeconds} seconds). Upload a smaller or shorter one.`);
    }
    throw unsupportedMedia("The image could not be read. It may be damaged or in an unsupported format.");
  }
}

function assertAnimationLimits(frames: number, width: number, pageHeight: number): void {
  if (frames > IMAGE_LIMITS.maxFrames) {
    throw tooLarge(`This animation has too many frames (${frames}; the limit is ${IMAGE_LIMITS.maxFrames}).`);
  }
  if (frames * width * pageHeight > IMAGE_LIMITS.maxAnimationPixels) {
    throw tooLarge(
      `This animation is too large: its ${frames} frames of ${width}×${pageHeight} add up to more than ${IMAGE_LIMITS.maxAnimationPixels / 1_000_000} megapixels. Upload a smaller or shorter one.`,
    );
  }
}

/** sharp's own time limit for the next step: whatever is left of the file's deadline (at least 1 s). */
function secondsLeft(deadline: number, signal?: AbortSignal): number {
  if (signal?.aborted) throw new AbandonedError();
  const left = deadline - Date.now();
  if (left <= 0) throw new Error("timeout: the deadline passed between steps");
  return Math.max(1, Math.ceil(left / 1000));
}

async function encodeImage(
  input: string | Buffer,
  format: SniffedFormat,
  animated: boolean,
  deadline: number,
  signal?: AbortSignal,
): Promise<ProcessedImage> {
  let pipeline = sharp(input, { animated, limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" });
  if (!animated) pipeline = pipeline.rotate();
  pipeline = pipeline.resize({ width: MAX_IMAGE_EDGE, height: MAX_IMAGE_EDGE, fit: "inside", withoutEnlargement: true });
  switch (format.ext) {
    case "jpg":
      pipeline = pipeline.jpeg({ quality: 85, mozjpeg: true });
      break;
    case "png":
      pipeline = pipeline.png({ compressionLevel: 9 });
      break;
    case "webp":
      pipeline = pipeline.webp({ quality: 85 });
      break;
    case "gif":
      pipeline = pipeline.gif();
      break;
    case "avif":
      pipeline = pipeline.avif({ quality: 60 });
      break;
    default:
      throw unsupportedMedia(UNSUPPORTED_MESSAGE);
  }
  const { data, info } = await pipeline.timeout({ seconds: secondsLeft(deadline, signal) }).toBuffer({ resolveWithObject: true });
  const width = info.width;
  const height = info.pageHeight ?? info.height;

  const variants = await encodeVariants(data, width, animated, VARIANT_WIDTHS, deadline, signal);
  return { main: { data, width, height, ext: format.ext, contentType: format.contentType }, variants };
}

async function encodeVariants(
  data: Buffer,
  width: number,
  animated: boolean,
  targets: readonly VariantTarget[],
  deadline: number,
  signal?: AbortSignal,
): Promise<EncodedVariant[]> {
  const variants: EncodedVariant[] = [];
  for (const target of targets) {
    // A picture narrower than the target: the same bytes as the variant before it, encoded once.
    const same = variants.find((v) => v.width === variantWidth(target, width));
    if (same) {
      variants.push({ ...same, target });
      continue;
    }
    const out = await sharp(data, { animated, limitInputPixels: MAX_INPUT_PIXELS })
      .resize({ width: target, withoutEnlargement: true })
      .webp({ quality: 80 })
      .timeout({ seconds: secondsLeft(deadline, signal) })
      .toBuffer({ resolveWithObject: true });
    variants.push({
      target,
      data: out.data,
      width: out.info.width,
      height: out.info.pageHeight ?? out.info.height,
      ext: "webp",
      contentType: "image/webp",
    });
  }
  return variants;
}

/**
 * The variants `targets` of an image already stored (its stripped full-size picture): what the
 * variant backfill makes for uploads from before a width was added. Same queue and time limit as an
 * upload, with no member's share or budget and no bound on the wait (nobody waits for an answer).
 */
export async function variantsOfStored(
  data: Buffer,
  targets: readonly VariantTarget[],
  { timeoutSeconds = IMAGE_LIMITS.timeoutSeconds }: { timeoutSeconds?: number } = {},
): Promise<EncodedVariant[]> {
  const probe = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  const animated = (probe.pages ?? 1) > 1 && (probe.format === "gif" || probe.format === "webp");
  return imageQueue.run(() => encodeVariants(data, probe.width ?? 0, animated, targets, Date.now() + timeoutSeconds * 1000), {
    maxWaitMs: Infinity,
  });
}
