import { data, type LoaderFunctionArgs } from "react-router";
import { fieldReportKind, listOwnFieldReports, type OwnFieldReport } from "~/models/places/harvest-log.server";
import { isAppError } from "~/utils/errors";
import { getSessionUser } from "~/web/session.server";

/**
 * /settings/harvest-log's server side (issue 45 item 4; docs/decisions/0095-harvest-log.md): the
 * member's own field reports, filtered by `?kind=`. Signed out: the page's sign-in notice (401), as
 * Settings does. An unknown kind is a 400 page with the reason beside the filter, never a 500.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const member = await getSessionUser(request);
  const kindParam = new URL(request.url).searchParams.get("kind");
  if (!member) return data({ signedIn: false as const, kind: null, kindError: null, reports: [] as OwnFieldReport[] }, { status: 401 });
  try {
    const kind = fieldReportKind(kindParam);
    return data({ signedIn: true as const, kind, kindError: null, reports: await listOwnFieldReports(member, kind) });
  } catch (error) {
    if (!isAppError(error) || error.status !== 400) throw error;
    return data({ signedIn: true as const, kind: null, kindError: error.message, reports: [] as OwnFieldReport[] }, { status: 400 });
  }
}
