import { Form, Link } from "react-router";
import { CountySelect, StateSelect } from "~/components/places/county-selects";

type Picker = {
  county: { fips: string; name: string; state: string; stateName: string } | null;
  states: { postal: string; name: string }[];
  chosenState: string | null;
  stateCounties: { fips: string; name: string }[];
};

/**
 * Settings › Profile › Home county (CONTRACT.md §14): the county /hunt-day opens on. Without
 * JavaScript, a state (a GET form that lists its counties), then a county (the saving POST form).
 */
export function HomeCountySettings({ picker }: { picker: Picker }) {
  const { county, states, chosenState, stateCounties } = picker;
  return (
    <section aria-labelledby="home-county-heading" className="space-y-3 border-t border-stone-200 pt-5" data-testid="home-county">
      <h3 id="home-county-heading" className="font-semibold text-bark-900">
        Home county
      </h3>
      <p className="text-sm text-stone-600">
        {county ? (
          <>
            <strong>
              {county.name}, {county.stateName}
            </strong>
            :{" "}
            <Link to="/hunt-day" className="text-blaze-700 underline">
              Hunt day
            </Link>{" "}
            opens on it. Only you see it.
          </>
        ) : (
          <>
            Optional.{" "}
            <Link to="/hunt-day" className="text-blaze-700 underline">
              Hunt day
            </Link>{" "}
            opens on it. Only you see it.
          </>
        )}
      </p>
      <Form method="get" action="/settings" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="tab" value="profile" />
        <StateSelect id="home-state" name="homeState" states={states} chosen={chosenState} />
        <button type="submit" className="btn-secondary min-h-11">
          Show counties
        </button>
      </Form>
      {chosenState ? (
        <Form method="post" action="/settings?tab=profile" className="flex flex-wrap items-end gap-2">
          <CountySelect id="home-county-select" name="homeCounty" counties={stateCounties} chosenState={chosenState} county={county} />
          <button type="submit" name="intent" value="home-county" className="btn-primary min-h-11">
            Save home county
          </button>
        </Form>
      ) : null}
      {county ? (
        <Form method="post" action="/settings?tab=profile">
          <input type="hidden" name="homeCounty" value="" />
          <button type="submit" name="intent" value="home-county" className="btn-secondary min-h-11">
            Remove home county
          </button>
        </Form>
      ) : null}
    </section>
  );
}
