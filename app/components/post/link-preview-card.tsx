import { useEffect, useRef, useState } from "react";
import { hasPreview, safeImageUrl, type LinkMetadata } from "~/schemas/media-options";
import { useDataSaver } from "~/components/ui/data-saver";
import { MediaLink } from "./meta";

/** The link preview's card and its loading skeleton (link-preview.tsx, live-link-preview.tsx). */

export function LinkPreviewSkeleton() {
  return (
    // Named by text, not aria-label: a div without a role may not carry one (axe aria-prohibited-attr,
    // seen whenever a page is audited before its preview arrives).
    <div className="card flex animate-pulse overflow-hidden" aria-busy="true" data-testid="link-preview-loading">
      <span className="sr-only">Loading link preview</span>
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
