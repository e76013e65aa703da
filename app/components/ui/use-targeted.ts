import { useEffect, useState } from "react";
import { useLocation } from "react-router";

/**
 * Whether the address's fragment names the element `id` (`#comment-12`: a notification, or a link
 * that points at one comment), so the page can mark it (ux-3 U11). Known once the page runs: the
 * server never sees a fragment, so the markup hydrates as it was drawn. Without JavaScript CSS's
 * `:target` marks it (tailwind.css `.comment-card`); a client navigation does not move `:target`,
 * hence this.
 */
export function useTargeted(id: string): boolean {
  const { hash } = useLocation();
  const [targeted, setTargeted] = useState(false);
  useEffect(() => setTargeted(hash === `#${id}`), [hash, id]);
  return targeted;
}
