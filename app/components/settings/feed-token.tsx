import { Form } from "react-router";
import { CopyButton } from "~/components/ui/copy-button";
import { useIsPending } from "~/utils/remix";

/** Where the piece's form posts (app/routes/settings_.feed-token.ts). */
export const FEED_TOKEN_ACTION = "/settings/feed-token";

/** What the piece shows: the site's origin, the member's token (null: none made yet) and their private clubs. */
export type FeedTokenPanelProps = { origin: string; token: string | null; clubs: { id: number; name: string }[] };

/** A private club's feed address with a token. */
export const privateFeedUrl = (origin: string, clubId: number, token: string) =>
  `${origin}/feeds/clubs/${clubId}.atom?token=${encodeURIComponent(token)}`;

/**
 * Settings › Notifications › Private club feeds (issue 26, CONTRACT.md §7 "Feeds"): the member's
 * personal feed token, which lets a feed reader read the Atom feed of a private club they belong to,
 * and a plain form to make it or replace it (replacing ends the old one: every reader using it stops
 * getting the feed). Works without JavaScript.
 */
export function FeedTokenSettings({ origin, token, clubs }: FeedTokenPanelProps) {
  const busy = useIsPending({ formAction: FEED_TOKEN_ACTION });
  return (
    <section className="space-y-3" aria-labelledby="feed-token-title" data-testid="feed-token-settings">
      <h3 id="feed-token-title" className="text-base font-semibold text-bark-900">
        Private club feeds
      </h3>
      <p className="text-sm text-stone-600">
        Public feeds need nothing: look for &ldquo;Follow in a feed reader&rdquo; on the home page, a tag, a profile or a club. A private
        club&apos;s feed opens only with your personal feed token, so keep these addresses to yourself.
      </p>
      {token ? (
        <>
          {clubs.length ? (
            <ul className="space-y-2" data-testid="feed-token-clubs">
              {clubs.map((club) => (
                <li key={club.id}>
                  <label className="block text-sm font-medium text-stone-800" htmlFor={`club-feed-${club.id}`}>
                    {club.name}
                  </label>
                  <div className="flex gap-2">
                    <input
                      id={`club-feed-${club.id}`}
                      className="input w-full font-mono text-xs"
                      readOnly
                      value={privateFeedUrl(origin, club.id, token)}
                      onFocus={(e) => e.currentTarget.select()}
                    />
                    <CopyButton
                      text={privateFeedUrl(origin, club.id, token)}
                      label={`Copy the feed address of ${club.name}`}
                      copied={{ title: "Address copied", description: `Paste it into your feed reader to follow ${club.name}.` }}
                    />
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-stone-600">You are not in any private club yet.</p>
          )}
        </>
      ) : (
        <p className="text-sm text-stone-600" data-testid="feed-token-none">
          You have no feed token yet. Create one to read your private clubs in a feed reader.
        </p>
      )}
      <Form method="post" action={FEED_TOKEN_ACTION} className="flex flex-wrap items-center gap-3">
        <button type="submit" className={token ? "btn-secondary" : "btn-primary"} disabled={busy}>
          {busy ? "Saving..." : token ? "Replace token" : "Create feed token"}
        </button>
        {token ? <span className="text-xs text-stone-500">The old addresses stop working at once.</span> : null}
      </Form>
    </section>
  );
}
