import { Link } from "react-router";
import type { ReactNode } from "react";
import { ErrorPanel } from "~/components/ui/error-boundary";
import { PROFILE_NOT_FOUND } from "~/schemas/messages";

/**
 * What the profile page and its follower lists show when they cannot: the shared error panel with
 * a way back to the feed. Used through `GeneralErrorBoundary`'s status handlers.
 */
export function ProfileErrorPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <ErrorPanel title={title}>
      <span className="block">{children}</span>
      <Link to="/" className="btn-primary mt-6">
        Back to the feed
      </Link>
    </ErrorPanel>
  );
}

export function ProfileNotFound() {
  return <ProfileErrorPanel title={PROFILE_NOT_FOUND}>The member you're looking for doesn't exist.</ProfileErrorPanel>;
}
