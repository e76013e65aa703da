import { POST_TYPE_LABELS, type PostType } from "~/schemas/post-options";
import { useHydrated } from "~/utils/hydrated";
import { suggestedPostType } from "~/utils/media-url-type";

const WHAT: Record<"video" | "podcast", string> = { video: "a video", podcast: "a podcast" };

/**
 * Beyond SPEC #10: while the type is still Article, a Media URL that looks like a video (YouTube,
 * Vimeo) or a podcast (Spotify, Apple Podcasts, an .mp3) offers that type with one button. It only
 * offers: the type changes when the member presses it, never by itself. With JavaScript only (the
 * button needs it); the live region stays in place so the offer is announced when it appears.
 */
export function TypeSuggestion({ mediaUrl, type, onAccept }: { mediaUrl: string; type: PostType; onAccept: (type: PostType) => void }) {
  const hydrated = useHydrated();
  const suggested = hydrated && type === "article" ? suggestedPostType(mediaUrl) : null;
  return (
    <div aria-live="polite" className="empty:hidden" data-testid="type-suggestion">
      {suggested ? (
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md bg-field-600/5 px-3 py-2 text-sm text-stone-700">
          <span>Looks like {WHAT[suggested]}.</span>
          <button type="button" className="font-semibold text-field-700 underline hover:text-field-600" onClick={() => onAccept(suggested)}>
            Make this a {POST_TYPE_LABELS[suggested]} post
          </button>
        </p>
      ) : null}
    </div>
  );
}
