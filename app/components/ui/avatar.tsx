/** An avatar image, or the first letter of the display name, or 'U' (SPEC.md §2). */
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
  if (src) {
    return (
      <img
        src={src}
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
