import { type ActionFunctionArgs, data, type HeadersFunction, type LoaderFunctionArgs } from "react-router";
import { CARD_HEADER, cardAddress } from "~/offline/hunt-day-card";
import { huntDayForecast, requireCounty } from "~/models/places/hunt-day.server";
import { getHomeCounty, setHomeCounty } from "~/models/places/home-county.server";
import type { County } from "~/utils/counties/counties.server";
import { countyPickerData } from "~/web/county-picker.server";
import { badRequest, isAppError } from "~/utils/errors";
import { withPageErrors } from "~/web/page-errors.server";
import { readFormData } from "~/web/request-body.server";
import { getSessionUser, requireActor } from "~/web/session.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /hunt-day's server side (CONTRACT.md §14 "Hunt-day card"; docs/decisions/0090): the card for
 * `?county=` or the member's home county, today and the next 14 days, and the state-then-county
 * chooser, all in the HTML (JavaScript off reads it whole). `?state=` lists that state's counties
 * for the chooser's second step. A bad `?county=` is a 400 page with the chooser and the reason.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const member = await getSessionUser(request);
  const asked = url.searchParams.get("county");
  const home = await getHomeCounty(member);
  let county: County | null = null;
  let countyError: string | null = null;
  if (asked !== null) {
    try {
      county = requireCounty(asked);
    } catch (error) {
      if (!isAppError(error)) throw error;
      countyError = error.fieldErrors?.county?.[0] ?? error.message;
    }
  } else {
    county = home;
  }
  const now = Date.now();
  return data(
    {
      county,
      isHome: Boolean(county && home?.fips === county.fips),
      signedIn: Boolean(member),
      days: county ? huntDayForecast(county, now) : [],
      countyError,
      ...countyPickerData(url.searchParams.get("state"), county),
    },
    {
      status: countyError ? 400 : 200,
      // A member's card: where the service worker fetches the same card drawn for a visitor, which it
      // keeps offline for 14 days past the 72-hour bound on the member's own pages (ADR 0090, 0095).
      headers: member && county ? { [CARD_HEADER]: cardAddress(county.fips) } : undefined,
    },
  );
}

/** The loader's card address on the document and its `.data` answer (the worker reads it from either). */
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const address = loaderHeaders.get(CARD_HEADER);
  return address ? { [CARD_HEADER]: address } : new Headers();
};

/**
 * "Make this my home county" (`intent=home`, `county`): signed in, a county the list knows; lands
 * back on the card (POST/redirect/GET). Signed out: to sign in and back.
 */
export async function action(args: ActionFunctionArgs) {
  return withPageErrors(args, async ({ request }) => {
    const member = await requireActor(request, "Please sign in to keep a home county");
    const form = await readFormData(request);
    if (form.get("intent") !== "home") throw badRequest("Unknown action");
    const county = await setHomeCounty(member, String(form.get("county") ?? ""));
    return redirectWithToast(`/hunt-day?county=${county!.fips}`, {
      title: `${county!.name}, ${county!.state} is your home county`,
      type: "success",
    });
  });
}
