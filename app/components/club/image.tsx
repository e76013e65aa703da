import { useEffect, useRef, useState } from "react";
import { useDataSaver } from "~/components/ui/data-saver";
import type { Club } from "~/schemas/shapes";
import { imageSources, SIZES } from "~/utils/image-sources";

/**
 * The club's image over a field-and-bark placeholder with its initial. The placeholder is always
 * there, behind the image: an image that fails to load (issue 14 #24) leaves it showing, with
 * JavaScript (onError, or a check after hydration for one that failed before) by dropping the image,
 * and without by the image's transparent box (an empty alt draws no broken-image icon). An uploaded
 * picture loads a variant (utils/image-sources.ts); with data saver on only the placeholder shows.
 */
export function ClubImage({ club, className = "" }: { club: Pick<Club, "imageUrl" | "name">; className?: string }) {
  const [failed, setFailed] = useState(false);
  const dataSaver = useDataSaver();
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = image.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, []);
  return (
    <div className={`relative overflow-hidden ${className}`} data-testid="club-image">
      <div
        aria-hidden="true"
        data-testid="club-image-placeholder"
        className="absolute inset-0 flex items-center justify-center bg-gradient-to-br from-field-700 to-bark-800 text-4xl font-bold text-white/80"
      >
        {club.name.trim()[0]?.toUpperCase() ?? "C"}
      </div>
      {club.imageUrl && !failed && !dataSaver ? (
        <img
          ref={image}
          {...imageSources(club.imageUrl, SIZES.club)}
          alt=""
          loading="lazy"
          decoding="async"
          onError={() => setFailed(true)}
          className="absolute inset-0 h-full w-full object-cover text-transparent"
        />
      ) : null}
    </div>
  );
}
