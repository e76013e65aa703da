/** The few inline icons the app uses (no icon library: they cost no request and little JS). */
type IconProps = { className?: string; filled?: boolean };

/**
 * The icons repeated on every card (like, comment, share, the ⋯ menu; a club's people and pin) are
 * drawn once per page, in IconSprite (rendered by the root layout), and each use names its symbol:
 * 20 cards no longer repeat the same paths 60 times (docs/decisions/0037-cheaper-home-rendering.md).
 * A symbol sets no fill or stroke of its own, so each use still colours it (currentColor, filled).
 */
const SYMBOLS = {
  heart: (
    <path
      strokeLinejoin="round"
      d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.8 3.6 4.5 7 4.5c2.1 0 3.6 1.2 5 3 1.4-1.8 2.9-3 5-3 3.4 0 5.5 3.3 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4z"
    />
  ),
  comment: <path strokeLinejoin="round" d="M4 5h16v11H9l-5 4V5z" />,
  share: (
    <>
      <circle cx="18" cy="5" r="2.5" />
      <circle cx="6" cy="12" r="2.5" />
      <circle cx="18" cy="19" r="2.5" />
      <path d="m8.2 10.8 7.6-4.4M8.2 13.2l7.6 4.4" />
    </>
  ),
  dots: (
    <>
      <circle cx="5" cy="12" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="19" cy="12" r="2" />
    </>
  ),
  people: (
    <>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20c.8-3.6 3.4-5.5 6.5-5.5s5.7 1.9 6.5 5.5M16 4.8a3.5 3.5 0 0 1 0 6.4M18.5 14.8c1.6.8 2.6 2.5 3 5.2" />
    </>
  ),
  pin: (
    <>
      <path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </>
  ),
};
type SymbolName = keyof typeof SYMBOLS;

/** The page's one copy of the shared icons (hidden; each icon below refers to its symbol). */
export function IconSprite() {
  return (
    <svg width="0" height="0" className="absolute" aria-hidden="true" data-testid="icon-sprite">
      {Object.entries(SYMBOLS).map(([name, shape]) => (
        <symbol key={name} id={`i-${name}`} viewBox="0 0 24 24">
          {shape}
        </symbol>
      ))}
    </svg>
  );
}

/** `extra` adds to the .icon class (tailwind.css): a size such as "h-4 w-4", "icon-solid", "icon-filled". */
function SpriteIcon({ name, extra = "" }: { name: SymbolName; extra?: string }) {
  return (
    <svg className={extra ? `icon ${extra}` : "icon"} aria-hidden="true">
      <use href={`#i-${name}`} />
    </svg>
  );
}

/** "h-5 w-5" is the .icon's own size: no need to repeat it. */
const sized = (className: string) => (className === "h-5 w-5" ? "" : className);

export function HeartIcon({ className = "h-5 w-5", filled = false }: IconProps) {
  return <SpriteIcon name="heart" extra={[sized(className), filled ? "icon-filled" : ""].filter(Boolean).join(" ")} />;
}

export function CommentIcon({ className = "h-5 w-5" }: IconProps) {
  return <SpriteIcon name="comment" extra={sized(className)} />;
}

export function ShareIcon({ className = "h-5 w-5" }: IconProps) {
  return <SpriteIcon name="share" extra={sized(className)} />;
}

export function DotsIcon({ className = "h-5 w-5" }: IconProps) {
  return <SpriteIcon name="dots" extra={[sized(className), "icon-solid"].filter(Boolean).join(" ")} />;
}

/** A padlock (private club) or a globe (public club), with its name for screen readers. */
export function PrivacyIcon({ isPrivate, className = "h-4 w-4" }: { isPrivate: boolean; className?: string }) {
  return isPrivate ? (
    <svg viewBox="0 0 24 24" className={className} role="img" aria-label="Private club" fill="none" stroke="currentColor" strokeWidth="2">
      <title>Private club</title>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V8a4 4 0 1 1 8 0v3" />
    </svg>
  ) : (
    <svg viewBox="0 0 24 24" className={className} role="img" aria-label="Public club" fill="none" stroke="currentColor" strokeWidth="2">
      <title>Public club</title>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.5 3.8 5.5 3.8 9s-1.3 6.5-3.8 9c-2.5-2.5-3.8-5.5-3.8-9S9.5 5.5 12 3z" />
    </svg>
  );
}

export function PeopleIcon({ className = "h-4 w-4" }: { className?: string }) {
  return <SpriteIcon name="people" extra={className} />;
}

export function PinIcon({ className = "h-4 w-4" }: { className?: string }) {
  return <SpriteIcon name="pin" extra={className} />;
}
