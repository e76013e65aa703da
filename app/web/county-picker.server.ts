import { countiesOf, getState, STATES, type County } from "~/utils/counties/counties.server";

/**
 * What a state-then-county picker without JavaScript needs (the hunt-day page, Settings › Profile's
 * home county; field reports later): every state, the chosen one (`?state=`, else the county's), and
 * that state's counties by name. Small: 56 states and at most 254 counties (Texas).
 */
export type CountyPickerData = {
  states: { postal: string; name: string }[];
  chosenState: string | null;
  stateCounties: { fips: string; name: string }[];
};

export function countyPickerData(stateParam: string | null, county: County | null): CountyPickerData {
  const state = getState(stateParam) ?? (county ? getState(county.state) : undefined);
  return {
    states: STATES.map(({ postal, name }) => ({ postal, name })),
    chosenState: state?.postal ?? null,
    stateCounties: state ? countiesOf(state.postal).map(({ fips, name }) => ({ fips, name })) : [],
  };
}
