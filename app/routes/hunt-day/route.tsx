import { useEffect, useState } from "react";
import type { MetaFunction } from "react-router";
import { CountySelect, StateSelect } from "~/components/places/county-selects";
import { Form, Link, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "~/components/ui/error-boundary";
import { pageMeta } from "~/utils/brand";
import type { HuntDay } from "~/utils/hunt-day";
import { clockText, dayText, percentText, zoneText } from "~/utils/hunt-day-format";
import { withUnreadTitle } from "~/utils/unread-title";
import type { loader } from "./hunt-day-page.server";

/**
 * /hunt-day (CONTRACT.md §14 "Hunt-day card"; docs/decisions/0090-counties-and-hunt-day.md): for
 * `?county=` or the member's home county, today and the next 14 days: legal light, sunrise and
 * sunset in the county's own time, and the moon. The server draws it all (JavaScript off reads it
 * whole); with JavaScript the page loads the calculation (suncalc, a lazy chunk) after it starts and
 * draws the days again from this device's date, so a saved copy opened days later, with no signal,
 * still starts at today.
 */
export { action, headers, loader } from "./hunt-day-page.server";

type CountyData = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["county"]>;

export default function HuntDayPage() {
  const { county, days: drawn, isHome, signedIn, countyError, states, chosenState, stateCounties } = useLoaderData<typeof loader>();
  const { days, onDevice } = useDaysFromThisDevice(county, drawn);
  const [today, ...rest] = days;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header>
        <h1 className="text-3xl font-bold text-bark-900">Hunt day</h1>
        {county ? (
          <p className="text-stone-700" data-testid="hunt-day-county">
            {county.name}, {county.stateName}
            {isHome ? (
              <span className="ml-2 rounded-full bg-field-700 px-2 py-0.5 text-xs font-semibold text-white">Home county</span>
            ) : null}
          </p>
        ) : (
          <p className="text-stone-700">
            Sunrise, sunset, legal shooting light and the moon for any US county, today and the next 14 days.
          </p>
        )}
      </header>

      {county && today ? (
        <>
          <TodayCard county={county} day={today} onDevice={onDevice} />
          <p className="rounded-md border border-blaze-500 bg-amber-50 px-4 py-3 text-sm text-bark-900" data-testid="legal-light-note">
            Legal light here is 30 minutes before sunrise to 30 minutes after sunset. <strong>Check your state&apos;s rule</strong>: some
            states set other hours, by zone or by date.
          </p>
          <NextDays county={county} days={rest} />
          <p className="text-xs text-stone-500">
            Times in {county.name}&apos;s local time ({county.timeZone}), for the county&apos;s centre ({county.lat.toFixed(2)},{" "}
            {county.lon.toFixed(2)}); a stand far from it may see the sun a minute or two apart.
          </p>
          {/* The way to the pulse for a phone's visitor, whose top bar has no room for it. */}
          <p className="text-sm">
            <Link to="/pulse" className="inline-block py-3 text-blaze-700 underline">
              What hunters are seeing, county by county: the pulse
            </Link>
          </p>
        </>
      ) : null}

      <CountyChooser
        county={county}
        countyError={countyError}
        states={states}
        chosenState={chosenState}
        stateCounties={stateCounties}
        signedIn={signedIn}
        isHome={isHome}
      />
    </div>
  );
}

/**
 * The server's days, and, once the page runs, the same worked out on this device when its date is
 * past the first of them (a saved copy opened later). The calculation is a chunk of its own, asked
 * for after the page starts: it stays off the first load and is saved for offline use.
 */
function useDaysFromThisDevice(county: CountyData | null, drawn: HuntDay[]) {
  const [mine, setMine] = useState<HuntDay[] | null>(null);
  useEffect(() => {
    setMine(null);
    if (!county) return;
    let live = true;
    import("~/utils/hunt-day")
      .then(({ huntDays, localDate }) => {
        if (live && localDate(Date.now(), county.timeZone) !== drawn[0]?.date) setMine(huntDays(county, Date.now()));
      })
      .catch(() => undefined); // offline and never loaded: the server's days stand
    return () => {
      live = false;
    };
  }, [county, drawn]);
  return { days: mine ?? drawn, onDevice: mine !== null };
}

function TodayCard({ county, day, onDevice }: { county: CountyData; day: HuntDay; onDevice: boolean }) {
  const zone = county.timeZone;
  const at = day.sunrise ?? day.legalStart ?? `${day.date}T12:00:00Z`;
  return (
    <section className="card p-5" aria-labelledby="today-heading" data-testid="hunt-day-today" data-date={day.date}>
      <h2 id="today-heading" className="text-lg font-semibold text-bark-900">
        Today, {dayText(day.date)}
      </h2>
      {day.polar ? (
        <p className="mt-2 text-stone-700">{day.polar === "night" ? "The sun does not rise today." : "The sun does not set today."}</p>
      ) : (
        <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
          <Figure label="Legal light starts" value={clockText(day.legalStart, zone)} strong />
          <Figure label="Sunrise" value={clockText(day.sunrise, zone)} />
          <Figure label="Sunset" value={clockText(day.sunset, zone)} />
          <Figure label="Legal light ends" value={clockText(day.legalEnd, zone)} strong />
        </dl>
      )}
      <p className="mt-3 text-stone-700">
        Moon: {day.moon.name}, {percentText(day.moon.illumination)} lit
      </p>
      <p className="mt-1 text-xs text-stone-500">
        Times in {zoneText(at, zone)}
        {onDevice ? <span data-testid="worked-out-here"> · worked out on this device from its date</span> : null}
      </p>
    </section>
  );
}

function Figure({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-stone-500">{label}</dt>
      <dd className={strong ? "text-xl font-bold text-bark-900" : "text-xl text-bark-900"}>{value}</dd>
    </div>
  );
}

function NextDays({ county, days }: { county: CountyData; days: HuntDay[] }) {
  const zone = county.timeZone;
  return (
    <section className="card p-0">
      <h2 id="next-days-heading" className="px-4 pt-4 text-lg font-semibold text-bark-900">
        The next 14 days
      </h2>
      {/* Wider than a phone: it scrolls sideways, and a keyboard can reach it to scroll it. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-labelledby="next-days-heading">
        <table className="mt-2 w-full text-left text-sm" data-testid="hunt-day-table">
          <thead className="text-xs uppercase tracking-wide text-stone-500">
            <tr>
              <th scope="col" className="px-3 py-2">
                Day
              </th>
              <th scope="col" className="px-3 py-2">
                Legal light
              </th>
              <th scope="col" className="px-3 py-2">
                Sunrise
              </th>
              <th scope="col" className="px-3 py-2">
                Sunset
              </th>
              <th scope="col" className="px-3 py-2">
                Moon
              </th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date} className="border-t border-stone-100" data-date={day.date}>
                <th scope="row" className="whitespace-nowrap px-3 py-2 font-medium text-bark-900">
                  {dayText(day.date)}
                </th>
                <td className="px-3 py-2">{day.polar ? "—" : `${clockText(day.legalStart, zone)} – ${clockText(day.legalEnd, zone)}`}</td>
                <td className="whitespace-nowrap px-3 py-2">{clockText(day.sunrise, zone)}</td>
                <td className="whitespace-nowrap px-3 py-2">{clockText(day.sunset, zone)}</td>
                <td className="px-3 py-2">
                  {day.moon.name}, {percentText(day.moon.illumination)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * Choose a county without JavaScript: a state (a GET form), then one of its counties (another).
 * Signed in, the county shown can become the member's home county (a POST form).
 */
function CountyChooser({
  county,
  countyError,
  states,
  chosenState,
  stateCounties,
  signedIn,
  isHome,
}: {
  county: CountyData | null;
  countyError: string | null;
  states: { postal: string; name: string }[];
  chosenState: string | null;
  stateCounties: { fips: string; name: string }[];
  signedIn: boolean;
  isHome: boolean;
}) {
  return (
    <section className="card space-y-4 p-5" aria-labelledby="choose-heading">
      <h2 id="choose-heading" className="text-lg font-semibold text-bark-900">
        {county ? "Another county" : "Choose a county"}
      </h2>
      {countyError ? (
        <p role="alert" className="text-sm text-red-700" id="county-error">
          {countyError}
        </p>
      ) : null}
      <Form method="get" action="/hunt-day" className="flex flex-wrap items-end gap-2" data-testid="choose-state">
        {county ? <input type="hidden" name="county" value={county.fips} /> : null}
        <StateSelect id="hunt-day-state" name="state" states={states} chosen={chosenState} />
        <button type="submit" className="btn-secondary min-h-11">
          Show counties
        </button>
      </Form>
      {chosenState ? (
        <Form method="get" action="/hunt-day" className="flex flex-wrap items-end gap-2" data-testid="choose-county">
          <input type="hidden" name="state" value={chosenState} />
          <CountySelect
            id="hunt-day-county-select"
            name="county"
            counties={stateCounties}
            chosenState={chosenState}
            county={county}
            describedBy={countyError ? "county-error" : undefined}
          />
          <button type="submit" className="btn-primary min-h-11">
            Show hunt day
          </button>
        </Form>
      ) : null}
      {county && signedIn && !isHome ? (
        <Form method="post" className="border-t border-stone-100 pt-4">
          <input type="hidden" name="intent" value="home" />
          <input type="hidden" name="county" value={county.fips} />
          <button type="submit" className="btn-secondary min-h-11">
            Make {county.name}, {county.state} my home county
          </button>
        </Form>
      ) : null}
      {!signedIn ? (
        <p className="text-sm text-stone-600">
          <Link to="/auth?redirectTo=%2Fhunt-day" className="text-blaze-700 underline">
            Sign in
          </Link>{" "}
          to keep a home county: this page opens on it.
        </p>
      ) : (
        <p className="text-sm text-stone-600">
          Your home county is in{" "}
          <Link to="/settings" className="text-blaze-700 underline">
            Settings › Profile
          </Link>
          .
        </p>
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = withUnreadTitle(({ data }) =>
  pageMeta(
    data?.county ? `Hunt day: ${data.county.name}, ${data.county.state}` : "Hunt day",
    "Sunrise, sunset, legal shooting light and the moon for a US county, today and the next 14 days.",
  ),
);

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
