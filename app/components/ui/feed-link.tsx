/**
 * A page's Atom feed, where a phone can see it (ux-3 U4): phone browsers show nothing for the
 * `<link rel="alternate">` in the page's head, and Settings tells members to look for this link.
 * A plain link to the feed's address, which a feed reader app takes when it is shared or copied.
 */
export function FeedLink({ href }: { href: string }) {
  return (
    <a
      href={href}
      type="application/atom+xml"
      className="tap inline-flex items-center gap-1 text-sm text-stone-600 hover:text-bark-900 hover:underline"
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4 fill-current">
        <circle cx="3" cy="13" r="2" />
        <path d="M1 6.5v2a6.5 6.5 0 0 1 6.5 6.5h2A8.5 8.5 0 0 0 1 6.5Zm0-5v2A11.5 11.5 0 0 1 12.5 15h2A13.5 13.5 0 0 0 1 1.5Z" />
      </svg>
      Follow in a feed reader (Atom)
    </a>
  );
}
