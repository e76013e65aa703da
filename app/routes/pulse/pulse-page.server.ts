import type { LoaderFunctionArgs } from "react-router";
import { pulseWithMap } from "~/web/pulse-map.server";

/**
 * /pulse's server side (CONTRACT.md §14 "The pulse"; docs/decisions/0094-the-pulse.md): the counties
 * at the floor of 3 reporters in the window (`?days=`, 1-30, 7 by default, read as `/api/pulse`
 * reads it) and their map, drawn once per data version. The same page for everyone: a visitor's is
 * kept by the visitor cache like the home's.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { days, from, to, counties, svg, total } = await pulseWithMap(new URL(request.url).searchParams.get("days"));
  return { days, from, to, counties, svg, total };
}
