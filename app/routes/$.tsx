import { data, type MetaFunction } from "react-router";
import { NotFoundPage } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import { withUnreadTitle } from "~/utils/unread-title";

const PAGE_NOT_FOUND = "Page Not Found";

/** Any path no other route claims: SPEC.md's 'Page Not Found' with status 404. */
export async function loader() {
  throw data({ message: PAGE_NOT_FOUND }, { status: 404 });
}

export async function action() {
  throw data({ message: PAGE_NOT_FOUND }, { status: 404 });
}

/** The document title says it too, like the other error pages' ("Post Not Found · Whitetail Pulse"; audit ux-2 N8). */
export const meta: MetaFunction = withUnreadTitle(() => pageMeta(PAGE_NOT_FOUND));

export default function CatchAll() {
  return <NotFoundPage />;
}

export function ErrorBoundary() {
  return <NotFoundPage />;
}
