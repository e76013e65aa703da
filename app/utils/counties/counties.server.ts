import data from "./counties.json";
import type { CountiesFile } from "./counties-file";

/**
 * Every US county (and the territories' county equivalents), shipped with the site
 * (docs/decisions/0090-counties-and-hunt-day.md): counties.json, written by
 * scripts/build-counties.ts from us-atlas 3.0.1, read once when the server starts. Field reports,
 * the pulse and the hunt-day card name a county by its 5-digit FIPS code and show it as
 * `{ fips, name, state }` (CONTRACT.md §14), `state` being the postal code ("IN").
 */

/** What an answer says of a county (CONTRACT.md §14). */
export type CountyRef = { fips: string; name: string; state: string };

export type County = CountyRef & {
  /** "Indiana". */
  stateName: string;
  /** The county's centre (d3-geo's spherical centroid of its outline), degrees. */
  lat: number;
  lon: number;
  /** The IANA zone its clocks keep ("America/Chicago"). */
  timeZone: string;
};

export type State = { fips: string; postal: string; name: string };

const file = data as CountiesFile;

export const STATES: readonly State[] = file.states.map(([fips, postal, name]) => ({ fips, postal, name }));
const stateByFips = new Map(STATES.map((state) => [state.fips, state]));
const stateByPostal = new Map(STATES.map((state) => [state.postal, state]));

const COUNTIES: readonly County[] = file.counties.map(([fips, name, lat, lon, zone]) => {
  const state = stateByFips.get(fips.slice(0, 2))!;
  return { fips, name, state: state.postal, stateName: state.name, lat, lon, timeZone: file.zones[zone] };
});
const byFips = new Map(COUNTIES.map((county) => [county.fips, county]));
const byState = new Map<string, County[]>();
for (const county of COUNTIES) byState.set(county.state, [...(byState.get(county.state) ?? []), county]);
for (const list of byState.values()) list.sort((a, b) => a.name.localeCompare(b.name));

/** Five digits: the shape of a county FIPS code (whether or not such a county exists). */
export const COUNTY_FIPS = /^\d{5}$/;

/** The county with this FIPS code, or undefined. */
export function getCounty(fips: string | null | undefined): County | undefined {
  return fips ? byFips.get(fips) : undefined;
}

/** The state with this postal code ("IN", any case), or undefined. */
export function getState(postal: string | null | undefined): State | undefined {
  return postal ? stateByPostal.get(postal.toUpperCase()) : undefined;
}

/** A state's counties by name. */
export function countiesOf(postal: string): readonly County[] {
  return byState.get(postal.toUpperCase()) ?? [];
}

export const countyRef = ({ fips, name, state }: CountyRef): CountyRef => ({ fips, name, state });

/** How many counties the site knows (3,231 in us-atlas 3.0.1). */
export const COUNTY_COUNT = COUNTIES.length;

/** The longest search text `searchCounties` takes. */
export const COUNTY_SEARCH_MAX = 60;

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
const folded = new Map(COUNTIES.map((county) => [county.fips, fold(county.name)]));
const KIND_WORDS = / (county|parish|borough|census area|municipio|municipality)$/;

/**
 * Up to `limit` counties whose name, or whose state's name or postal code, matches `query`: "lake",
 * "Lake County", "lake, in", "lake in", "indiana", "IN". Counties whose name starts with the text come
 * first, then those with a later word starting with it, then the counties of a matching state; each
 * group by name, then state. Accents, case and punctuation are ignored ("dona ana" finds "Doña Ana").
 */
export function searchCounties(query: string, limit = 20): CountyRef[] {
  const text = fold(query).replace(KIND_WORDS, "");
  if (!text) return [];
  const statesNamed = (words: string) => STATES.filter((state) => state.postal.toLowerCase() === words || fold(state.name) === words);
  const ranked: { county: County; rank: number }[] = [];
  for (const county of COUNTIES) {
    const name = folded.get(county.fips)!;
    let rank = -1;
    if (name.startsWith(text)) rank = 0;
    else if (name.includes(` ${text}`)) rank = 1;
    else if (fold(county.stateName).startsWith(text) || county.state.toLowerCase() === text) rank = 3;
    if (rank < 0 && text.includes(" ")) {
      // A county name, then a state: "lake, in", "st louis mo", "lake new york".
      for (let cut = text.indexOf(" "); cut > 0; cut = text.indexOf(" ", cut + 1)) {
        const head = text.slice(0, cut).replace(KIND_WORDS, "");
        const tail = text.slice(cut + 1);
        if (statesNamed(tail).some((state) => state.postal === county.state) && (name.startsWith(head) || name.includes(` ${head}`))) {
          rank = 2;
          break;
        }
      }
    }
    if (rank >= 0) ranked.push({ county, rank });
  }
  ranked.sort(
    (a, b) => a.rank - b.rank || a.county.name.localeCompare(b.county.name) || a.county.stateName.localeCompare(b.county.stateName),
  );
  return ranked.slice(0, limit).map(({ county }) => countyRef(county));
}
