import { Form, Link, useNavigation } from "react-router";
import { Avatar } from "~/components/ui/avatar";
import { RelativeTime } from "~/components/ui/relative-time";
import { TitledSection } from "~/components/ui/titled-section";

/** One member on the list, as the settings loader gives it. */
export type BlockedMember = { username: string; displayName: string; avatar: string | null; blockedAt: string };

/**
 * Settings › Privacy › Blocked members (CONTRACT.md §8 "Blocks"): whom the member blocked, newest
 * first, each with an Unblock button, a plain form (intent `unblock`) that works without JavaScript
 * and comes back here with a toast. `moreHref`: the next page of the list, when there is one.
 */
export function BlockedMembers({ members, action, moreHref }: { members: BlockedMember[]; action: string; moreHref: string | null }) {
  const navigation = useNavigation();
  const unblocking =
    navigation.state !== "idle" && navigation.formData?.get("intent") === "unblock" ? navigation.formData.get("username") : null;
  return (
    <TitledSection id="blocked-members" title="Blocked members" className="space-y-3" testId="blocked-members">
      <p className="text-sm text-stone-600">
        You don&apos;t see their posts or comments, you don&apos;t follow each other, and they can&apos;t follow you, comment on your posts
        or notify you. Block a member from their profile.
      </p>
      {members.length === 0 ? (
        <p className="text-sm text-stone-700">You haven&apos;t blocked anyone.</p>
      ) : (
        <ul className="divide-y divide-stone-200" aria-label="Blocked members">
          {members.map((m) => (
            <li key={m.username} className="flex items-center justify-between gap-3 py-2">
              <Link to={`/profile/${m.username}`} className="flex min-w-0 items-center gap-3 hover:underline">
                <Avatar src={m.avatar} name={m.displayName} size={32} />
                <span className="min-w-0">
                  <span className="block truncate font-medium text-bark-900">{m.displayName}</span>
                  <span className="block truncate text-xs text-stone-500">
                    @{m.username} · blocked <RelativeTime iso={m.blockedAt} />
                  </span>
                </span>
              </Link>
              <Form method="post" action={action}>
                <input type="hidden" name="username" value={m.username} />
                <button
                  type="submit"
                  name="intent"
                  value="unblock"
                  className="btn-secondary"
                  aria-label={`Unblock ${m.displayName} (@${m.username})`}
                  disabled={unblocking === m.username}
                >
                  {unblocking === m.username ? "Unblocking..." : "Unblock"}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {moreHref ? (
        <Link to={moreHref} className="btn-ghost" preventScrollReset>
          More blocked members
        </Link>
      ) : null}
    </TitledSection>
  );
}
