import type { OwnFieldReport } from "~/models/places/harvest-log.server";
import { FIELD_REPORT_KIND_LABELS, RUT_PHASE_LABELS } from "~/schemas/field-report-options";
import { NO_STORE_VALUE } from "./cache-control.server";

/**
 * The harvest log as CSV (CONTRACT.md §14; docs/decisions/0095-harvest-log.md), for a state's
 * harvest reporting or a spreadsheet: RFC 4180 (CRLF lines, a header row, a cell holding a comma,
 * quote or line break in double quotes with its quotes doubled), with the post's absolute address on
 * the site's public origin (as the Atom feeds build theirs). The columns are CONTRACT.md §14's, in its
 * order and no more (a state's import reads them by position): the post's title is not among them.
 *
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with `=`, `+`,
 * `-` or `@` (and tab or carriage return, which some treat the same) as a formula. No cell holds a
 * member's own words today (counties and labels are the site's), but every cell goes through
 * `csvCell`, which writes such text with a `'` before it (spreadsheets show it as text), so a column
 * added later cannot open that door. Numbers are written as numbers.
 */

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8; header=present";

export const CSV_HEADER = ["date", "county", "state", "kind", "rut phase", "bucks", "does", "post URL"] as const;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: text made safe from formulas, then quoted when RFC 4180 asks for it. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: the header row, then one row per report, each line ended by CRLF. */
export function harvestLogCsv(reports: OwnFieldReport[], origin: string): string {
  const rows = reports.map((r) => [
    r.observedOn,
    r.county.name,
    r.county.state,
    FIELD_REPORT_KIND_LABELS[r.kind],
    // Phases in lower case, as the page words them in a sentence ("post-rut"; ADR 0095).
    r.rutPhase ? RUT_PHASE_LABELS[r.rutPhase].toLowerCase() : null,
    r.bucks,
    r.does,
    new URL(r.post.url, origin).toString(),
  ]);
  return [CSV_HEADER as readonly (string | number | null)[], ...rows].map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}

/** The download: an attachment named for the member and the day, never stored by a cache (private clubs' reports are in it). */
export function harvestLogCsvResponse(reports: OwnFieldReport[], origin: string, username: string, now = new Date()): Response {
  const safeName = username.replace(/[^A-Za-z0-9_-]/g, "");
  const filename = `whitetail-pulse-harvest-log-${safeName}-${now.toISOString().slice(0, 10)}.csv`;
  return new Response(harvestLogCsv(reports, origin), {
    headers: {
      "Content-Type": CSV_CONTENT_TYPE,
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": NO_STORE_VALUE,
    },
  });
}
