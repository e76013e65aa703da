import type { Actor } from "~/models/members/user.server";
import { loadPosts } from "~/models/posts/post-view.server";
import type { Post } from "~/schemas/shapes";
import { COUNTY_FIPS, getCounty, type CountyRef } from "~/utils/counties/counties.server";
import { queryRows } from "~/utils/db.server";
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

/** `GET /api/pulse?days=`: the counties at or over the floor in the window, most reports first. */
export async function getPulse(daysParam: string | null | undefined, now = Date.now()): Promise<Pulse> {
  const days = pulseDays(daysParam);
  const { from, to } = pulseWindow(days, now);
  const rows = await queryRows<PulseRow>(pulseSql(false), { from, to });
  return { days, from, to, counties: rows.flatMap((row) => toPulseCounty(row) ?? []) };
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
  ORDER BY f.created_at DESC, f.post_id DESC LIMIT ${PULSE_POSTS_MAX}`;

/**
 * `GET /api/pulse/{fips}?days=`: the county's figures and its public report posts in the window,
 * newest written first (up to PULSE_POSTS_MAX), as `actor` sees them; 404 `Not enough reports yet`
 * under the floor, 404 for a code that is no county.
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
  const ids = await queryRows<{ id: number | string }>(COUNTY_POSTS_SQL, { from, to, county: code });
  const posts = await loadPosts(
    actor,
    ids.map((r) => Number(r.id)),
  );
  return { days, from, to, county, posts };
}
