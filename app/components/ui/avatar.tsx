import { imageSources, SIZES } from "~/utils/media/image-sources";
import { useDataSaver } from "./data-saver";

/**
 * An avatar image, or the first letter of the display name, or 'U' (SPEC.md §2). An uploaded avatar
 * loads its smallest fitting variant, never the full-size picture; with data saver on the letter
 * stands in (no image bytes at all).
 */
export function Avatar({
  src,
  name,
  size = 40,
  className = "",
}: {
  src?: string | null;
  name?: string | null;
  size?: number;
  className?: string;
}) {
  const initial = (name?.trim()?.[0] ?? "U").toUpperCase();
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  const dataSaver = useDataSaver();
  if (src && !dataSaver) {
    return (
      <img
        {...imageSources(src, SIZES.fixed(size))}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        className={`shrink-0 rounded-full object-cover ${className}`}
        style={style}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-initial"
      className={className ? `avatar-initial ${className}` : "avatar-initial"}
      style={style}
    >
      {initial}
    </span>
  );
}
