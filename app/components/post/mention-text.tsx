import { Link } from "react-router";
import { MENTION_PATTERN } from "~/utils/mentions";

/**
 * A post's or comment's text with its @mentions of members who exist (`mentions`, as the server
 * found them: mention.server.ts) as links to their profiles, written as the author wrote them; an
 * unknown name stays text (CONTRACT.md §7). Text, never HTML: React escapes every part. Small on
 * purpose: it is in every card's and the post page's first load (tests/e2e/first-load-js.spec.ts).
 */
export function MentionText({ text, mentions }: { text: string; mentions?: string[] }) {
  // The pattern's one group makes split give text, name, text, name …
  return mentions
    ? text.split(MENTION_PATTERN).map((part, i) => {
        const name = i % 2 ? mentions.find((n) => n.toLowerCase() === part.toLowerCase()) : 0;
        return name ? (
          <Link key={i} to={`/profile/${name}`} className="font-medium text-field-700 hover:underline">
            {`@${part}`}
          </Link>
        ) : i % 2 ? (
          `@${part}`
        ) : (
          part
        );
      })
    : text;
}
