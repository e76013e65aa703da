import { useEffect, useRef, useState } from "react";
import { hasPreview, safeImageUrl, type LinkMetadata } from "~/schemas/media-options";
import { useDataSaver } from "~/components/ui/data-saver";
import { useHydrated } from "~/utils/hydrated";
import { isHttpUrl } from "~/utils/urls";
import { MediaLink } from "./meta";

/**
 * SPEC.md §2 / §4 link preview: a pulse skeleton while the metadata loads, then a card (title,
 * description, image, site), or the plain link when no metadata arrives. A broken preview image is
 * hidden. Posts carry their metadata from publication on, so a card normally renders at once on the
 * server (no JavaScript needed); only a post without stored metadata asks /api/fetch-url-metadata.
 */

/** Previews already fetched on this page, so cards and the editor never ask twice. */
const fetched = new Map<string, LinkMetadata | null>();

async function requestMetadata(url: string, signal: AbortSignal): Promise<LinkMetadata | null> {
  if (fetched.has(url)) return fetched.get(url)!;
  try {
    const response = await fetch("/api/fetch-url-metadata", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ url }),
      signal,
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const data = (await response.json()) as LinkMetadata;
    fetched.set(url, data);
    return data;
  } catch (error) {
    if (signal.aborted) throw error;
    // SPEC.md §8: failures of the metadata call are only logged; the plain link is shown.
    console.warn(`Link preview unavailable for ${url}:`, error);
    fetched.set(url, null);
    return null;
  }
}

type State = { status: "idle" | "loading" | "done"; metadata: LinkMetadata | null };

/**
 * Fetches metadata for `url` once `enabled`, after `delayMs` (the editor's 500 ms pause after
 * typing); a newer URL cancels the older request.
 */
function useLinkMetadata(url: string, { enabled, delayMs }: { enabled: boolean; delayMs: number }): State {
  const [state, setState] = useState<State>({ status: "idle", metadata: null });
  useEffect(() => {
    if (!enabled) {
      setState({ status: "idle", metadata: null });
      return;
    }
    if (fetched.has(url)) {
      setState({ status: "done", metadata: fetched.get(url)! });
      return;
    }
    const controller = new AbortController();
    setState({ status: "idle", metadata: null });
    const timer = setTimeout(() => {
      setState({ status: "loading", metadata: null });
      requestMetadata(url, controller.signal).then(
        (metadata) => setState({ status: "done", metadata }),
        () => undefined, // aborted: a newer URL took over
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [url, enabled, delayMs]);
  return state;
}

/**
 * On a post card or page: the stored metadata, or (with JavaScript, for a member: the metadata call
 * is members only) a fetch when there is none.
 */
export function LinkPreview({
  url,
  metadata,
  canFetch = true,
}: {
  url: string | null | undefined;
  metadata: LinkMetadata | null | undefined;
  canFetch?: boolean;
}) {
  const hydrated = useHydrated();
  const needsFetch = canFetch && Boolean(url) && !metadata && /^https?:\/\//i.test(url ?? "");
  const live = useLinkMetadata(url ?? "", { enabled: hydrated && needsFetch, delayMs: 0 });
  if (!url) return null;
  if (metadata) return <LinkPreviewCard url={url} metadata={metadata} />;
  if (needsFetch && hydrated && live.status !== "done") return <LinkPreviewSkeleton />;
  return <LinkPreviewCard url={url} metadata={live.metadata} />;
}

/** In the post editor: a live preview 500 ms after a URL starting with http is typed (JavaScript only). */
export function EditorLinkPreview({ url }: { url: string }) {
  const trimmed = url.trim();
  const wanted = /^http/i.test(trimmed) && isUrl(trimmed);
  const live = useLinkMetadata(trimmed, { enabled: wanted, delayMs: 500 });
  if (!wanted || live.status === "idle") return null;
  if (live.status === "loading") return <LinkPreviewSkeleton />;
  return <LinkPreviewCard url={trimmed} metadata={live.metadata} />;
}

/** An http(s) address whose host has a dot: a half-typed "https://exa" is not looked up yet. */
function isUrl(value: string): boolean {
  return isHttpUrl(value) && new URL(value).hostname.includes(".");
}

export function LinkPreviewSkeleton() {
  return (
    <div
      className="card flex animate-pulse overflow-hidden"
      aria-busy="true"
      aria-label="Loading link preview"
      data-testid="link-preview-loading"
    >
      <div className="h-24 w-24 shrink-0 bg-stone-200 sm:w-40" />
      <div className="flex-1 space-y-2 p-3">
        <div className="h-3 w-1/4 rounded bg-stone-200" />
        <div className="h-4 w-3/4 rounded bg-stone-200" />
        <div className="h-3 w-full rounded bg-stone-200" />
      </div>
    </div>
  );
}

/** The card, or the plain link when there is nothing to show. */
export function LinkPreviewCard({ url, metadata }: { url: string; metadata: LinkMetadata | null | undefined }) {
  if (!metadata || !hasPreview(metadata)) return <MediaLink url={url} />;
  const site = metadata.siteName || metadata.domain;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer nofollow ugc"
      className="card flex overflow-hidden transition-colors hover:border-field-500"
      data-testid="link-preview"
    >
      <PreviewImage src={safeImageUrl(metadata.image)} />
      <span className="block min-w-0 flex-1 p-3">
        {site ? <span className="block truncate text-xs uppercase tracking-wide text-stone-500">{site}</span> : null}
        {metadata.title ? (
          <span className="mt-0.5 line-clamp-2 block font-semibold text-bark-900 wrap-anywhere">{metadata.title}</span>
        ) : null}
        {metadata.description ? (
          <span className="mt-1 line-clamp-2 block text-sm text-stone-600 wrap-anywhere">{metadata.description}</span>
        ) : null}
      </span>
    </a>
  );
}

/** Hidden when it fails to load, including a failure that happened before the page hydrated. */
function PreviewImage({ src }: { src: string | null }) {
  const [broken, setBroken] = useState(false);
  const ref = useRef<HTMLImageElement | null>(null);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) setBroken(true);
  }, [src]);
  // Another site's picture: with data saver on it is left out altogether.
  const dataSaver = useDataSaver();
  if (!src || broken || dataSaver) return null;
  return (
    <img
      ref={ref}
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
      className="h-24 w-24 shrink-0 bg-stone-100 object-cover sm:h-auto sm:min-h-[6rem] sm:w-40"
      data-testid="link-preview-image"
    />
  );
}
