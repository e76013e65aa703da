import { useState } from "react";
import { CountySelect, StateSelect } from "~/components/places/county-selects";
import { CountyTypeAhead, type CountyOption } from "~/components/places/county-type-ahead";
import { FieldErrors } from "~/components/ui/field";
import { useHydrated } from "~/utils/hydrated";
import { DEER_COUNT_MAX, FIELD_REPORT_KIND_LABELS, FIELD_REPORT_KINDS, RUT_PHASE_LABELS, RUT_PHASES } from "~/schemas/field-report-options";
import {
  FIELD_COUNTY_LABEL_NAME,
  FIELD_STATE_NAME,
  LIST_COUNTIES_INTENT,
  type FieldReportPicker,
  type FieldReportValues,
} from "~/schemas/field-report-form";

/** The part's fields a draft of the form keeps (useDraft). */
export const FIELD_DRAFT_FIELDS = [
  "field.kind",
  "field.county",
  "field.observedOn",
  "field.rutPhase",
  "field.bucks",
  "field.does",
  FIELD_COUNTY_LABEL_NAME,
] as const;

type Key = keyof FieldReportValues;

/** "Lake, IN" back to its parts, for a county the form knows only by a kept label. */
function parseLabel(fips: string | undefined, text: string | undefined): CountyOption | null {
  if (!fips || !text) return null;
  const at = text.lastIndexOf(", ");
  return at > 0 ? { fips, name: text.slice(0, at), state: text.slice(at + 2) } : null;
}

/**
 * The optional "Field report" part of the post forms (CONTRACT.md §14, issue 45 item 1): what was
 * seen (sighting, rut sign, harvest), the county, the day, the rut phase and the deer. Folded away
 * until opened, open when it has values or errors. Its fields are Conform's nested `field.*`; the
 * hidden `field.sent` says the form had the part, so a part left blank means no report (on edit:
 * remove it).
 *
 * Two taps past the post form: open it and tap the kind; the county is the member's home county and
 * the day today unless changed. County: with JavaScript a type-ahead over every US county; without
 * it a state select, "List counties" (the same form back from the server with everything kept and
 * that state's counties listed, nothing published), then the county select.
 */
export function FieldReportPart({
  idPrefix,
  values,
  countyLabel,
  errors,
  picker,
}: {
  idPrefix: string;
  values: FieldReportValues;
  /** A kept draft's "County, ST" for `values.county`. */
  countyLabel?: string;
  errors: (key: Key | "") => string[] | undefined;
  picker: FieldReportPicker | null;
}) {
  const hydrated = useHydrated();
  const id = (key: string) => `${idPrefix}-field-${key}`;
  const keys: Key[] = ["kind", "county", "observedOn", "rutPhase", "bucks", "does"];
  const anyError = Boolean(errors("")?.length) || keys.some((key) => errors(key)?.length);
  const hasValues = Boolean(values.kind);
  const today = picker?.today;
  const county = values.county ?? picker?.county?.fips ?? "";
  const known = picker?.county && picker.county.fips === county ? picker.county : parseLabel(county, countyLabel);
  const [chosen, setChosen] = useState<CountyOption | null>(known);
  // With JavaScript the rest of the part waits for a kind: "No report" sends none of it, so the
  // browser's check reads no report, not a report without a kind. Without JavaScript it is sent, and
  // the schema reads a part without a kind as no report (schemas/field-report.ts).
  const [kind, setKind] = useState(values.kind ?? "");
  const describe = (key: Key) => (errors(key)?.length ? `${id(key)}-error` : undefined);

  return (
    <details className="rounded-lg border border-stone-200" open={hasValues || anyError} data-testid="field-report-part">
      <summary className="flex min-h-11 cursor-pointer items-center px-4 font-semibold text-bark-900">
        Field report <span className="ml-2 text-sm font-normal text-stone-600">(optional: a sighting, rut sign or harvest)</span>
      </summary>
      <div className="space-y-4 border-t border-stone-100 p-4">
        <input type="hidden" name="field.sent" value="on" />
        <FieldErrors id={id("error")} errors={errors("")} />
        <fieldset aria-describedby={describe("kind")}>
          <legend className="label">What you saw</legend>
          <div className="flex flex-wrap gap-2">
            {[["", "No report"] as const, ...FIELD_REPORT_KINDS.map((kind) => [kind, FIELD_REPORT_KIND_LABELS[kind]] as const)].map(
              ([value, text]) => (
                <label
                  key={value || "none"}
                  className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-stone-200 px-3 hover:border-field-500 has-[:checked]:border-blaze-500 has-[:checked]:bg-blaze-500/5"
                >
                  <input
                    type="radio"
                    name="field.kind"
                    value={value}
                    defaultChecked={(values.kind ?? "") === value}
                    onChange={(event) => event.target.checked && setKind(value)}
                    className="h-4 w-4 accent-blaze-500"
                  />
                  {text}
                </label>
              ),
            )}
          </div>
          <FieldErrors id={`${id("kind")}-error`} errors={errors("kind")} />
        </fieldset>

        <fieldset disabled={hydrated && !kind} className="space-y-4 disabled:opacity-60" data-testid="field-report-details">
          <div>
            {hydrated ? (
              <>
                <CountyTypeAhead
                  id={id("county")}
                  name="field.county"
                  initial={chosen}
                  describedBy={describe("county")}
                  invalid={Boolean(errors("county")?.length)}
                  onChoose={setChosen}
                />
                <input type="hidden" name={FIELD_COUNTY_LABEL_NAME} value={chosen ? `${chosen.name}, ${chosen.state}` : ""} />
              </>
            ) : (
              <PlainCountyPick idPrefix={id("")} county={county} known={known} picker={picker} describedBy={describe("county")} />
            )}
            <FieldErrors id={`${id("county")}-error`} errors={errors("county")} />
          </div>

          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor={id("observedOn")} className="label">
                Day seen
              </label>
              <input
                id={id("observedOn")}
                name="field.observedOn"
                type="date"
                className="input min-h-11"
                defaultValue={values.observedOn ?? today ?? ""}
                max={today}
                aria-invalid={errors("observedOn")?.length ? true : undefined}
                aria-describedby={describe("observedOn")}
              />
              <FieldErrors id={`${id("observedOn")}-error`} errors={errors("observedOn")} />
            </div>
            <div>
              <label htmlFor={id("rutPhase")} className="label">
                Rut phase (optional)
              </label>
              <select
                id={id("rutPhase")}
                name="field.rutPhase"
                className="input min-h-11"
                defaultValue={values.rutPhase ?? ""}
                aria-invalid={errors("rutPhase")?.length ? true : undefined}
                aria-describedby={describe("rutPhase")}
              >
                <option value="">Not sure</option>
                {RUT_PHASES.map((phase) => (
                  <option key={phase} value={phase}>
                    {RUT_PHASE_LABELS[phase]}
                  </option>
                ))}
              </select>
              <FieldErrors id={`${id("rutPhase")}-error`} errors={errors("rutPhase")} />
            </div>
            {(["bucks", "does"] as const).map((key) => (
              <div key={key}>
                <label htmlFor={id(key)} className="label">
                  {key === "bucks" ? "Bucks seen (optional)" : "Does seen (optional)"}
                </label>
                <input
                  id={id(key)}
                  name={`field.${key}`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={DEER_COUNT_MAX}
                  step={1}
                  className="input min-h-11"
                  defaultValue={values[key] ?? ""}
                  aria-invalid={errors(key)?.length ? true : undefined}
                  aria-describedby={describe(key)}
                />
                <FieldErrors id={`${id(key)}-error`} errors={errors(key)} />
              </div>
            ))}
          </div>
        </fieldset>
      </div>
    </details>
  );
}

/**
 * The county without JavaScript: the state select and "List counties", which sends the whole form
 * back with the intent LIST_COUNTIES_INTENT (nothing is published), then that state's county select.
 */
function PlainCountyPick({
  idPrefix,
  county,
  known,
  picker,
  describedBy,
}: {
  idPrefix: string;
  county: string;
  known: CountyOption | null;
  picker: FieldReportPicker | null;
  describedBy?: string;
}) {
  if (!picker) {
    // No lists from the server (a form drawn without them): the code the member may know, kept as sent.
    return (
      <div>
        <label htmlFor={`${idPrefix}county`} className="block text-sm font-medium text-stone-700">
          County FIPS code
        </label>
        <input
          id={`${idPrefix}county`}
          name="field.county"
          className="input min-h-11"
          inputMode="numeric"
          pattern="\d{5}"
          defaultValue={county}
          aria-describedby={describedBy}
        />
      </div>
    );
  }
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <StateSelect id={`${idPrefix}state`} name={FIELD_STATE_NAME} states={picker.states} chosen={picker.chosenState} />
        <button type="submit" name="intent" value={LIST_COUNTIES_INTENT} formNoValidate className="btn-secondary min-h-11">
          List counties
        </button>
      </div>
      {picker.chosenState ? (
        <CountySelect
          id={`${idPrefix}county`}
          name="field.county"
          counties={picker.stateCounties}
          chosenState={picker.chosenState}
          county={known}
          describedBy={describedBy}
        />
      ) : county ? (
        <input type="hidden" name="field.county" value={county} />
      ) : null}
    </div>
  );
}
