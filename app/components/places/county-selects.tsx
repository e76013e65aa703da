/**
 * The two plain selects of a county pick without JavaScript (CONTRACT.md §14): a state, whose form
 * (GET) lists its counties, then one of them. Settings › Profile's home county and /hunt-day each put
 * them in forms of their own (where they go, what they keep); the selects are the same.
 */

export function StateSelect({
  id,
  name,
  states,
  chosen,
}: {
  id: string;
  name: string;
  states: { postal: string; name: string }[];
  chosen: string | null;
}) {
  return (
    <div className="min-w-48 flex-1">
      <label htmlFor={id} className="block text-sm font-medium text-stone-700">
        State
      </label>
      <select id={id} name={name} defaultValue={chosen ?? ""} key={chosen ?? ""} className="input min-h-11">
        <option value="" disabled>
          Choose a state
        </option>
        {states.map((state) => (
          <option key={state.postal} value={state.postal}>
            {state.name}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CountySelect({
  id,
  name,
  counties,
  chosenState,
  county,
  describedBy,
}: {
  id: string;
  name: string;
  /** The chosen state's counties. */
  counties: { fips: string; name: string }[];
  chosenState: string;
  /** The county already chosen, selected when it is in this state. */
  county: { fips: string; state: string } | null;
  describedBy?: string;
}) {
  return (
    <div className="min-w-48 flex-1">
      <label htmlFor={id} className="block text-sm font-medium text-stone-700">
        County
      </label>
      <select
        id={id}
        name={name}
        defaultValue={county?.state === chosenState ? county.fips : ""}
        key={`${chosenState}-${county?.fips ?? ""}`}
        className="input min-h-11"
        aria-describedby={describedBy}
      >
        <option value="" disabled>
          Choose a county
        </option>
        {counties.map((option) => (
          <option key={option.fips} value={option.fips}>
            {option.name}
          </option>
        ))}
      </select>
    </div>
  );
}
