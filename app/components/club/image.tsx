import { useEffect, useRef, useState } from "react";
import { useDataSaver } from "~/components/ui/data-saver";
import type { Club } from "~/schemas/shapes";
import { imageSources, SIZES } from "~/utils/media/image-sources";

/**
 * The club's image over a field-and-bark placeholder with its initial. The placeholder is always
 * there, behind the image: an image that fails to load (issue 14 #24) leaves it showing, with
 * JavaScript (onError, or a check after hydration for one that failed before) by dropping the image.
 * Without JavaScript Chromium still draws its broken-image icon in the image's box (audit ux-2 #24),
 * but it draws a broken image's ::after, never a loaded one's: the ::after is the placeholder again,
 * over the icon. An uploaded picture loads a variant (utils/media/image-sources.ts); with data saver on only
 * the placeholder shows.
 */
export function ClubImage({ club, className = "" }: { club: Pick<Club, "imageUrl" | "name">; className?: string }) {
  const [failed, setFailed] = useState(false);
  const dataSaver = useDataSaver();
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = image.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  const initial = club.name.trim()[0]?.toUpperCase() ?? "C";
  return (
    <div className={`relative overflow-hidden ${className}`} data-testid="club-image">
      <div aria-hidden="true" data-testid="club-image-placeholder" className={`absolute inset-0 ${PLACEHOLDER}`}>
        {initial}
      </div>
      {club.imageUrl && !failed && !dataSaver ? (
        <img
          ref={image}
          {...imageSources(club.imageUrl, SIZES.club)}
          alt=""
          loading="lazy"
          decoding="async"
          onError={() => setFailed(true)}
          data-initial={initial}
          className={`absolute inset-0 h-full w-full object-cover text-transparent ${BROKEN_COVER}`}
        />
      ) : null}
    </div>
  );
}

/** The letter placeholder's look. */
const PLACEHOLDER = "flex items-center justify-center bg-gradient-to-br from-field-700 to-bark-800 text-4xl font-bold text-white/80";

/** The same look as a broken image's ::after, over the browser's broken-image icon (written out for Tailwind to find). */
const BROKEN_COVER =
  "after:absolute after:inset-0 after:flex after:items-center after:justify-center after:bg-gradient-to-br after:from-field-700 after:to-bark-800 after:text-4xl after:font-bold after:text-white/80 after:content-[attr(data-initial)]";
