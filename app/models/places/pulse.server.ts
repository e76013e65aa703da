import { notBlockedByViewerSql } from "~/models/members/block.server";
import type { Actor } from "~/models/members/user.server";
import { loadPosts } from "~/models/posts/post-view.server";
import type { Post } from "~/schemas/shapes";
import { COUNTY_FIPS, getCounty, type CountyRef } from "~/utils/counties/counties.server";
import { dataVersion, queryRows } from "~/utils/db.server";
import { indexedBy } from "~/utils/db/sql-dialect.server";
import { notFound } from "~/utils/errors";

/**
 * The pulse (CONTRACT.md §14 "The pulse", issue 45 item 2; docs/decisions/0094-the-pulse.md): where
 * members reported deer in the last days, by county, never finer. Only what any visitor may read
 * counts: a post not hidden or removed (`hidden_at IS NULL`) and not in a private club. A county is
 * listed only when at least PULSE_FLOOR different members reported there in the window, so a
 * county's figures never point at one or two hunters.
 *
 * The window is `days` calendar days ending today (UTC's date), today included: `days=1` is today
 * alone, `days=7` today and the six days before, by the day seen (`observedOn`), not the day
 * written.
 */

export const PULSE_FLOOR = 3;
export const PULSE_DAYS = { min: 1, max: 30, default: 7 } as const;
/** The most report posts a county's page lists. */
export const PULSE_POSTS_MAX = 50;
export const NOT_ENOUGH_REPORTS = "Not enough reports yet";
export const NO_SUCH_COUNTY = "No US county has that FIPS code";

export type RutPhaseName = "pre" | "seeking" | "chasing" | "lockdown" | "post";

export type PulseCounty = CountyRef & {
  reports: number;
  reporters: number;
  /** The rut phase reported most in the window (a tie goes to the later phase); null when none was given. */
  rutPhase: RutPhaseName | null;
  /** When the newest report was written, ISO 8601 UTC. */
  lastAt: string;
};

export type Pulse = { days: number; from: string; to: string; counties: PulseCounty[] };
export type CountyPulse = { days: number; from: string; to: string; county: PulseCounty; posts: Post[] };

/**
 * `?days=` as the feed reads `limit` (schemas/post.ts): never an error. A whole number is clamped to
 * 1-30; anything else (missing, empty, "abc", "2.5") is the default, 7. The answer says which was used.
 */
export function pulseDays(value: string | null | undefined): number {
  const text = (value ?? "").trim();
  if (!/^\d+$/.test(text)) return PULSE_DAYS.default;
  return Math.min(PULSE_DAYS.max, Math.max(PULSE_DAYS.min, Number(text)));
}

/** The window's first and last day (YYYY-MM-DD, UTC's calendar), `days` days ending today. */
export function pulseWindow(days: number, now = Date.now()): { from: string; to: string } {
  const today = new Date(now);
  const to = today.toISOString().slice(0, 10);
  const from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (days - 1))).toISOString().slice(0, 10);
  return { from, to };
}

/** What a visitor may read of a report's post: not hidden or removed, not in a private club. */
const PUBLIC_REPORT = `p.hidden_at IS NULL AND (p.club_id IS NULL OR NOT c.is_private)`;

/**
 * The pulse in one statement: the window's public reports (read through `field_reports_pulse`, the
 * window being its leading column), counted by county, the counties under the floor dropped, and the
 * most reported rut phase of each (ties to the later phase). `@county` narrows it to one county (its
 * page), read through `field_reports_county` instead.
 */
export function pulseSql(oneCounty: boolean): string {
  const reports = oneCounty ? indexedBy("field_reports f", "field_reports_county") : indexedBy("field_reports f", "field_reports_pulse");
  return `WITH w AS MATERIALIZED (
    SELECT f.county AS county, f.author_id AS author_id, f.rut_phase AS rut_phase, f.created_at AS created_at
    FROM ${reports}
    JOIN posts p ON p.id = f.post_id
    LEFT JOIN clubs c ON c.id = p.club_id
    WHERE f.observed_on >= @from AND f.observed_on <= @to${oneCounty ? " AND f.county = @county" : ""} AND ${PUBLIC_REPORT}
  ), kept AS (
    SELECT county, count(*) AS reports, count(DISTINCT author_id) AS reporters, max(created_at) AS last_at
    FROM w GROUP BY county HAVING count(DISTINCT author_id) >= ${PULSE_FLOOR}
  ), phases AS (
    SELECT county, rut_phase, row_number() OVER (PARTITION BY county ORDER BY count(*) DESC,
      max(CASE rut_phase WHEN 'pre' THEN 1 WHEN 'seeking' THEN 2 WHEN 'chasing' THEN 3 WHEN 'lockdown' THEN 4 ELSE 5 END) DESC) AS rank
    FROM w WHERE rut_phase IS NOT NULL GROUP BY county, rut_phase
  )
  SELECT k.county AS county, k.reports AS reports, k.reporters AS reporters, k.last_at AS last_at, ph.rut_phase AS rut_phase
  FROM kept k LEFT JOIN phases ph ON ph.county = k.county AND ph.rank = 1
  ORDER BY k.reports DESC, k.reporters DESC, k.county`;
}

type PulseRow = {
  county: string;
  reports: number | string;
  reporters: number | string;
  last_at: number | string;
  rut_phase: RutPhaseName | null;
};

function toPulseCounty(row: PulseRow): PulseCounty | null {
  const county = getCounty(row.county);
  // A code the county list no longer knows (us-atlas bumped): nothing to name or draw.
  if (!county) return null;
  return {
    fips: county.fips,
    name: county.name,
    state: county.state,
    // PostgreSQL answers bigint counts as text.
    reports: Number(row.reports),
    reporters: Number(row.reporters),
    rutPhase: row.rut_phase ?? null,
    lastAt: new Date(Number(row.last_at)).toISOString(),
  };
}

/** The pulse as the database has it now: the one statement over the window. */
async function readPulse(days: number, from: string, to: string): Promise<Pulse> {
  const rows = await queryRows<PulseRow>(pulseSql(false), { from, to });
  const counties = rows.flatMap((row) => toPulseCounty(row) ?? []);
  // Shared by every caller of the same version and window: frozen, so none can change another's.
  for (const county of counties) Object.freeze(county);
  return Object.freeze({ days, from, to, counties: Object.freeze(counties) as PulseCounty[] });
}

/** The most windows kept for one data version (days 1-30, and a new day's `from` beside the old one's). */
export const PULSE_CACHE_MAX = 60;

/** Pulses read at the data version they were read at, by window (`days:from`); the reads themselves, so callers at once share one. */
let readAt: { version: number; pulses: Map<string, Promise<Pulse>> } | null = null;

/**
 * The pulse for this window and the data version it holds for, read once per data version and
 * window, as the map is drawn (web/pulse-map.server.ts; docs/decisions/0094-the-pulse.md, addendum):
 * every counted write (a report written, edited or removed, a post hidden or deleted, a club made
 * private, a member gone), on any process or node, moves the version on, and the next ask reads
 * afresh. The version is read _before_ the pulse, so a pulse is never kept under a version newer than
 * its data. A version no page is drawn under (PostgreSQL, a counted write still open: negative) is
 * read afresh and not kept, nor is one older than the kept one (a slow request's). Held for one
 * version at a time, at most PULSE_CACHE_MAX windows. A read that fails is not kept.
 */
export async function pulseAtVersion(daysParam: string | null | undefined, now = Date.now()): Promise<{ version: number; pulse: Pulse }> {
  const days = pulseDays(daysParam);
  const { from, to } = pulseWindow(days, now);
  const version = await dataVersion();
  if (version < 0 || (readAt && version < readAt.version)) return { version, pulse: await readPulse(days, from, to) };
  if (readAt?.version !== version) readAt = { version, pulses: new Map() };
  const { pulses } = readAt;
  const key = `${days}:${from}`;
  let read = pulses.get(key);
  if (read === undefined) {
    if (pulses.size >= PULSE_CACHE_MAX) pulses.clear();
    const fresh = readPulse(days, from, to);
    fresh.catch(() => {
      if (pulses.get(key) === fresh) pulses.delete(key);
    });
    pulses.set(key, fresh);
    read = fresh;
  }
  return { version, pulse: await read };
}

/**
 * `GET /api/pulse?days=`: the counties at or over the floor in the window, most reports first. The
 * same for everyone, read once per data version and window (pulseAtVersion); the answer is frozen.
 */
export async function getPulse(daysParam: string | null | undefined, now = Date.now()): Promise<Pulse> {
  return (await pulseAtVersion(daysParam, now)).pulse;
}

/** The county a `{fips}` path segment names, or 404 (a malformed code is no county either, as a malformed id). */
export function requirePulseCountyCode(fips: string | undefined): string {
  if (!fips || !COUNTY_FIPS.test(fips) || !getCounty(fips)) throw notFound(NO_SUCH_COUNTY);
  return fips;
}

const COUNTY_POSTS_SQL = `SELECT f.post_id AS id
  FROM ${indexedBy("field_reports f", "field_reports_county")}
  JOIN posts p ON p.id = f.post_id
  LEFT JOIN clubs c ON c.id = p.club_id
  WHERE f.county = @county AND f.observed_on >= @from AND f.observed_on <= @to AND ${PUBLIC_REPORT}
    AND ${notBlockedByViewerSql("p.author_id")}
  ORDER BY f.created_at DESC, f.post_id DESC LIMIT ${PULSE_POSTS_MAX}`;

/**
 * `GET /api/pulse/{fips}?days=`: the county's figures and its public report posts in the window,
 * newest written first (up to PULSE_POSTS_MAX), as `actor` sees them; 404 `Not enough reports yet`
 * under the floor, 404 for a code that is no county. The posts leave out the members the viewer
 * blocked, as every feed does (feed.server.ts VISIBLE_TO_VIEWER, CONTRACT.md §8 "Blocks"); the
 * figures do not: they are the county's, the same for everyone (the public pulse).
 */
export async function getCountyPulse(
  actor: Actor,
  fips: string | undefined,
  daysParam: string | null | undefined,
  now = Date.now(),
): Promise<CountyPulse> {
  const code = requirePulseCountyCode(fips);
  const days = pulseDays(daysParam);
  const { from, to } = pulseWindow(days, now);
  const [row] = await queryRows<PulseRow>(pulseSql(true), { from, to, county: code });
  const county = row ? toPulseCounty(row) : null;
  if (!county) throw notFound(NOT_ENOUGH_REPORTS);
  const ids = await queryRows<{ id: number | string }>(COUNTY_POSTS_SQL, { from, to, county: code, viewer: actor?.id ?? 0 });
  const posts = await loadPosts(
    actor,
    ids.map((r) => Number(r.id)),
  );
  return { days, from, to, county, posts };
}
