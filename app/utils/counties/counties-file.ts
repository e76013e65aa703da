/**
 * The shape of counties.json (written by scripts/build-counties.ts): states as
 * `[fips, postal, name]` by name, the time zones once, and each county as
 * `[fips, name, latitude, longitude, index into zones]` by FIPS code.
 */
export type CountiesFile = {
  source: string;
  states: [string, string, string][];
  zones: string[];
  counties: [string, string, number, number, number][];
};
