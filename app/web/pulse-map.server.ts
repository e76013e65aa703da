import fs from "node:fs";
import { createRequire } from "node:module";
import { geoPath, geoTransform } from "d3-geo";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { pulseAtVersion, type Pulse, type PulseCounty } from "~/models/places/pulse.server";
import { shadeOf } from "~/utils/pulse-shades";

/**
 * The pulse's map (issue 45 item 2; docs/decisions/0094-the-pulse.md), drawn on the server as one SVG
 * string: readable with JavaScript off, nothing to load but the page.
 *
 * Shapes come from us-atlas 3.0.1's `counties-albers-10m.json`: the Census Bureau's 1:10m cartographic
 * boundaries already projected to Albers USA (Alaska and Hawaii inset) in a 975 × 610 frame, so
 * drawing is a plain path with no projection. A whole county map is 3,142 shapes (about 100 KB
 * gzipped even rounded to whole pixels), over the page's budget for a slow link: the map draws the
 * nation's land and the state lines, simplified (points closer than a pixel to the last one dropped,
 * whole pixels; about 25 KB gzipped, measured in the ADR), and only the counties the pulse lists
 * (those at the floor of 3 reporters), each a link to its page, shaded by its reports.
 *
 * Drawn once per data version and window (`mapFor`): every visitor and member asking the same days
 * while nothing was written gets the same string.
 */

export const MAP_WIDTH = 975;
export const MAP_HEIGHT = 610;

type Atlas = { base: string; counties: Map<string, string> };
let atlas: Atlas | null = null;

/** A path that drops points within `tolerance` pixels of the last one kept, written in whole pixels. */
function simplifiedPath(tolerance: number) {
  let last: [number, number] | null = null;
  const thin = geoTransform({
    point(this: { stream: { point(x: number, y: number): void } }, x: number, y: number) {
      if (last && Math.hypot(x - last[0], y - last[1]) < tolerance) return;
      last = [x, y];
      this.stream.point(x, y);
    },
    lineStart(this: { stream: { lineStart(): void } }) {
      last = null;
      this.stream.lineStart();
    },
  });
  return geoPath(thin).digits(0);
}

/** The land and state lines (drawn once per process) and every county's outline, keyed by FIPS (drawn when first shown). */
function loadAtlas(): Atlas {
  if (atlas) return atlas;
  const file = createRequire(import.meta.url).resolve("us-atlas/counties-albers-10m.json");
  const topology = JSON.parse(fs.readFileSync(file, "utf8")) as Topology<{
    counties: GeometryCollection;
    states: GeometryCollection;
    nation: GeometryCollection;
  }>;
  const thin = simplifiedPath(1);
  const land = thin(feature(topology, topology.objects.nation)) ?? "";
  const lines = thin(mesh(topology, topology.objects.states, (a, b) => a !== b)) ?? "";
  const base = `<path class="pulse-land" d="${land}" fill="#f1ede4" stroke="#8a7a63" stroke-width="0.8"/><path class="pulse-states" d="${lines}" fill="none" stroke="#b3a58f" stroke-width="0.6" stroke-linejoin="round"/>`;
  const counties = new Map<string, string>();
  const countyPath = simplifiedPath(0.75);
  const fullPath = geoPath().digits(1);
  for (const shape of feature(topology, topology.objects.counties).features) {
    // A county under a pixel or two across (Virginia's independent cities) keeps its outline.
    const thin = countyPath(shape);
    const d = thin && (thin.match(/L/g)?.length ?? 0) >= 3 ? thin : fullPath(shape);
    if (shape.id !== undefined && d) counties.set(String(shape.id), d);
  }
  atlas = { base, counties };
  return atlas;
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Lake, IN: 4 reports from 3 members": a county's name on the map, as the list says it. */
export function countyLabel(county: PulseCounty): string {
  return `${county.name}, ${county.state}: ${plural(county.reports, "report", "reports")} from ${plural(county.reporters, "member", "members")}`;
}

/** The map's SVG for these counties (`days` for the links and words). Pure: the same input, the same string. */
export function drawPulseMap(counties: readonly PulseCounty[], days: number): string {
  const { base, counties: shapes } = loadAtlas();
  const drawn = counties.filter((county) => shapes.has(county.fips));
  const links = drawn
    .map((county) => {
      const label = escapeXml(countyLabel(county));
      return `<a href="/pulse/${county.fips}?days=${days}"><title>${label}</title><path d="${shapes.get(county.fips)}" fill="${shadeOf(county.reports)}" stroke="#3b2f22" stroke-width="0.5"/></a>`;
    })
    .join("");
  const window = days === 1 ? "today" : `the last ${days} days`;
  const summary =
    drawn.length === 0
      ? `No county has reports from at least 3 members in ${window}.`
      : `${plural(drawn.length, "county", "counties")} shaded by the reports members filed in ${window}; darker is more. The list below the map has every figure.`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}" role="group" aria-labelledby="pulse-map-title" aria-describedby="pulse-map-desc" class="pulse-map">` +
    `<title id="pulse-map-title">Map of US counties with field reports</title><desc id="pulse-map-desc">${escapeXml(summary)}</desc>` +
    base +
    `<g class="pulse-counties">${links}</g></svg>`
  );
}

/**
 * The most counties the page draws and lists, those with the most reports (`/api/pulse` has them all):
 * the page's budget on a slow link is 120 KB gzipped, and a member's copy carries the map twice (the
 * HTML and the data the page hydrates from). Measured in the ADR: 250 counties is about 85 KB for a
 * member.
 */
export const PULSE_PAGE_MAX = 250;

/** Maps drawn for the data version they were drawn at, by window. */
let drawnAt: { version: number; maps: Map<string, string> } | null = null;

/**
 * The pulse and its map for this window, both once per data version: a write anywhere (any process,
 * any node) moves the version on and the next ask reads and draws afresh. The pulse comes with the
 * version it was read at (read before it, so a map is never kept under a version newer than its
 * data; pulseAtVersion), and the map is kept under that version. `from` is in the key as well as
 * `days`, so a new day draws a new map. Held for one version at a time; a version no page is drawn
 * under (negative: a PostgreSQL write still open) or older than the one held is drawn and not kept.
 */
export async function pulseWithMap(daysParam: string | null): Promise<Pulse & { svg: string; total: number }> {
  const { version, pulse: all } = await pulseAtVersion(daysParam);
  const pulse = { ...all, counties: all.counties.slice(0, PULSE_PAGE_MAX) };
  const key = `${pulse.days}:${pulse.from}`;
  if (version < 0 || (drawnAt && version < drawnAt.version))
    return { ...pulse, svg: drawPulseMap(pulse.counties, pulse.days), total: all.counties.length };
  if (drawnAt?.version !== version) drawnAt = { version, maps: new Map() };
  let svg = drawnAt.maps.get(key);
  if (svg === undefined) {
    svg = drawPulseMap(pulse.counties, pulse.days);
    if (drawnAt.maps.size >= 60) drawnAt.maps.clear();
    drawnAt.maps.set(key, svg);
  }
  return { ...pulse, svg, total: all.counties.length };
}
