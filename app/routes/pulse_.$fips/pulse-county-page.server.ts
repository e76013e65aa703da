import type { LoaderFunctionArgs } from "react-router";
import { getCountyPulse } from "~/models/places/pulse.server";
import { withLoaderErrors } from "~/web/page-errors.server";
import { getSessionUser } from "~/web/session.server";

/**
 * /pulse/{fips}'s server side (CONTRACT.md §14 "The pulse"; docs/decisions/0094-the-pulse.md): the
 * county's figures in the window and its public report posts, newest first, as `/api/pulse/{fips}`
 * answers them. Under the floor of 3 reporters, or a code that is no county: the 404 page, saying which.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const actor = await getSessionUser(request);
  const days = new URL(request.url).searchParams.get("days");
  return withLoaderErrors(request, async () => {
    const pulse = await getCountyPulse(actor, params.fips, days);
    return { ...pulse, viewerId: actor?.id ?? null };
  });
}
