import { Link } from "react-router";
import type { FieldReport } from "~/schemas/shapes";

const MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

/** "sighting" → "Sighting", "rut_sign" → "Rut sign", "pre" → "Pre-rut": the forms' words (field-report-line.test.ts). */
export function words(code: string, rutPhase?: boolean): string {
  const text = code[0]!.toUpperCase() + code.slice(1).replace("_", " ");
  return rutPhase && (code === "pre" || code === "post") ? `${text}-rut` : text;
}

/** "12 Nov", with the year when it is not `year`. */
export function shortDay(date: string, year: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return `${d} ${MONTHS.substr(3 * m! - 3, 3)}${y !== year ? ` ${y}` : ""}`;
}

/** "2 bucks, 3 does", "1 buck", or "" when neither was given. */
export function deerSeen(bucks: number | null, does: number | null): string {
  const count = (n: number | null, one: string) => (n === null ? [] : [`${n} ${one}${n === 1 ? "" : "s"}`]);
  return [...count(bucks, "buck"), ...count(does, "doe")].join(", ");
}

/**
 * A post's field report in one line (CONTRACT.md §14, issue 45 item 1), on its card and its page:
 * "Sighting · Lake, IN · 12 Nov · Seeking · 2 bucks, 3 does". The county links to its pulse page.
 * The day's year shows only when it is not the post's own year. Every byte here is in every feed's
 * first load: the words are made from the codes, not looked up in the forms' lists (a module shared
 * with the lazy forms would be a file of its own there).
 */
export function FieldReportLine({ report, postedAt }: { report: FieldReport | null | undefined; postedAt: string }) {
  if (!report) return null;
  const { kind, county, observedOn, rutPhase } = report;
  const after = [
    shortDay(observedOn, new Date(postedAt).getUTCFullYear()),
    rutPhase && words(rutPhase, true),
    deerSeen(report.bucks, report.does),
  ];
  // One string either side of the county's link.
  return (
    <p className="mt-2 text-sm text-stone-700 max-sm:mt-6" data-testid="field-report">
      <span className="sr-only">Field report: </span>
      {words(kind)} ·{" "}
      <Link to={`/pulse/${county.fips}`} className="tap-area text-blaze-700 underline">
        {county.name}, {county.state}
      </Link>
      {after.map((part) => (part ? ` · ${part}` : "")).join("")}
    </p>
  );
}
