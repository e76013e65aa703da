import { json } from "@remix-run/node";
import { NotFoundPage } from "~/components/ui/error-boundary";

/** Any path no other route claims: SPEC.md's 'Page Not Found' with status 404. */
export async function loader() {
  throw json({ message: "Page Not Found" }, { status: 404 });
}

export async function action() {
  throw json({ message: "Page Not Found" }, { status: 404 });
}

export default function CatchAll() {
  return <NotFoundPage />;
}

export function ErrorBoundary() {
  return <NotFoundPage />;
}
