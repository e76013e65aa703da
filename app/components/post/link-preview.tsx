import { Suspense } from "react";
import type { LinkMetadata } from "~/schemas/media-options";
import { lazyPart } from "~/components/ui/lazy-part";
import { useHydrated } from "~/utils/hydrated";
import { LinkPreviewCard, LinkPreviewSkeleton } from "./link-preview-card";
import { importAgain } from "~/utils/import-again";

/**
 * SPEC.md §2 / §4 link preview: a pulse skeleton while the metadata loads, then a card (title,
 * description, image, site), or the plain link when no metadata arrives. A broken preview image is
 * hidden. Posts carry their metadata from publication on, so a card normally renders at once on the
 * server (no JavaScript needed); only a post without stored metadata asks /api/fetch-url-metadata.
 */

/**
 * The fetch for a post without stored metadata, and the editor's live preview, are in
 * live-link-preview.tsx, fetched when first needed: nearly every card has its metadata, and the
 * feed's first load need not carry the request code (issue 26's budget).
 */
type LiveProps = { url: string };
const LiveLinkPreview = lazyPart<LiveProps>(
  importAgain(
    () => import("./live-link-preview"),
    (m) => m.LiveLinkPreview,
  ),
  PlainLink,
);
/** Where the fetch's code did not arrive: the plain link, as when no metadata comes (SPEC.md §8). */
function PlainLink({ url }: LiveProps) {
  return <LinkPreviewCard url={url} metadata={null} />;
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
  if (!url) return null;
  if (metadata) return <LinkPreviewCard url={url} metadata={metadata} />;
  if (needsFetch && hydrated) {
    return (
      <Suspense fallback={<LinkPreviewSkeleton />}>
        <LiveLinkPreview url={url} />
      </Suspense>
    );
  }
  return <LinkPreviewCard url={url} metadata={null} />;
}
