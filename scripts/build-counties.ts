/**
 * `npx tsx scripts/build-counties.ts` — writes app/utils/counties/counties.json, the site's list of
 * every US county (docs/decisions/0090-counties-and-hunt-day.md): 5-digit FIPS code, name, state,
 * centre point and IANA time zone, from us-atlas 3.0.1's counties-10m.json (the Census Bureau's
 * 2017 cartographic boundaries, 1:10,000,000) with topojson-client and d3-geo's spherical centroid.
 * The file is committed: the server reads 150 KB of ready rows once instead of the 800 KB TopoJSON,
 * and a test (counties.server.test.ts) runs this again and fails when the two differ.
 *
 * `--check`: compare instead of writing (exit 1 when the committed file is stale).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { geoCentroid } from "d3-geo";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { STATE_CODES } from "../app/utils/counties/states";
import { ZONE_EXCEPTIONS } from "../app/utils/counties/time-zone-rules";
import type { CountiesFile } from "../app/utils/counties/counties-file";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const COUNTIES_FILE = path.join(ROOT, "app/utils/counties/counties.json");

type Props = { name: string };

/** Census names independent cities like the county of the same name; the city gets its " city" back. */
function countyName(fips: string, name: string): string {
  const independentCity = (fips.startsWith("51") && Number(fips.slice(2)) >= 500) || fips === "24510" || fips === "29510";
  return independentCity && !/ city$/i.test(name) && name !== "Carson City" ? `${name} city` : name;
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

export function buildCounties(): CountiesFile {
  const atlas = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/us-atlas/counties-10m.json"), "utf8")) as Topology<{
    counties: GeometryCollection<Props>;
    states: GeometryCollection<Props>;
  }>;
  const stateNames = new Map(atlas.objects.states.geometries.map((g) => [String(g.id), (g.properties as Props).name]));
  const states = Object.entries(STATE_CODES)
    .map(([fips, { postal }]) => {
      const name = stateNames.get(fips);
      if (!name) throw new Error(`us-atlas has no state ${fips}`);
      return [fips, postal, name] as [string, string, string];
    })
    .sort((a, b) => a[2].localeCompare(b[2]));

  const postalToFips = new Map(Object.entries(STATE_CODES).map(([fips, { postal }]) => [postal, fips]));
  /** "21|Jefferson" → zone, from the exceptions; each name must match exactly one county. */
  const exceptions = new Map<string, string>();
  for (const [postal, zones] of Object.entries(ZONE_EXCEPTIONS)) {
    for (const [zone, names] of Object.entries(zones))
      for (const name of names) exceptions.set(`${postalToFips.get(postal)}|${name}`, zone);
  }
  const used = new Set<string>();

  const collection = feature(atlas, atlas.objects.counties);
  const rows = collection.features.map((county) => {
    const fips = String(county.id);
    const state = fips.slice(0, 2);
    if (!STATE_CODES[state]) throw new Error(`County ${fips} is in a state this list does not know`);
    const rawName = county.properties!.name;
    const key = `${state}|${rawName}`;
    let zone = STATE_CODES[state].zone;
    if (exceptions.has(key) && countyName(fips, rawName) === rawName) {
      zone = exceptions.get(key)!;
      used.add(key);
    }
    const [lon, lat] = geoCentroid(county);
    return { fips, name: countyName(fips, rawName), lat: round(lat), lon: round(lon), zone };
  });
  const missing = [...exceptions.keys()].filter((key) => !used.has(key));
  if (missing.length) throw new Error(`Time-zone exceptions name no county: ${missing.join(", ")}`);

  rows.sort((a, b) => a.fips.localeCompare(b.fips));
  const zones = [...new Set(rows.map((row) => row.zone))].sort();
  return {
    source: "us-atlas 3.0.1 counties-10m.json; centres: d3-geo geoCentroid; zones: app/utils/counties/time-zone-rules.ts",
    states,
    zones,
    counties: rows.map((row) => [row.fips, row.name, row.lat, row.lon, zones.indexOf(row.zone)]),
  };
}

/** The file's text: one county a line, so a change reads as a small diff. */
export function countiesText(data: CountiesFile): string {
  const line = (value: unknown) => JSON.stringify(value);
  return [
    "{",
    `"source": ${line(data.source)},`,
    `"states": [\n${data.states.map(line).join(",\n")}\n],`,
    `"zones": ${line(data.zones)},`,
    `"counties": [\n${data.counties.map(line).join(",\n")}\n]`,
    "}",
    "",
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = countiesText(buildCounties());
  if (process.argv.includes("--check")) {
    const same = fs.existsSync(COUNTIES_FILE) && fs.readFileSync(COUNTIES_FILE, "utf8") === text;
    console.log(same ? "counties.json is up to date" : "counties.json is stale: run npx tsx scripts/build-counties.ts");
    process.exit(same ? 0 : 1);
  }
  fs.writeFileSync(COUNTIES_FILE, text);
  console.log(`Wrote ${path.relative(ROOT, COUNTIES_FILE)} (${(text.length / 1024).toFixed(0)} KB)`);
}
