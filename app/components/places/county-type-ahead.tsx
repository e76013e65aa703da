import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

export type CountyOption = { fips: string; name: string; state: string };

const label = (county: CountyOption) => `${county.name}, ${county.state}`;

/**
 * A county by typing (CONTRACT.md §14), with JavaScript: a combobox over `GET /api/counties?q=`
 * (every US county, by county or state name) whose choice fills the hidden input `name` with its FIPS
 * code and reads "County, ST". Clearing the text clears the choice. Without JavaScript the forms draw
 * the state and county selects instead (county-selects.tsx).
 */
export function CountyTypeAhead({
  id,
  name,
  initial,
  describedBy,
  invalid,
  onChoose,
}: {
  id: string;
  name: string;
  initial: CountyOption | null;
  describedBy?: string;
  invalid?: boolean;
  onChoose?: (county: CountyOption | null) => void;
}) {
  const [chosen, setChosen] = useState<CountyOption | null>(initial);
  const [text, setText] = useState(initial ? label(initial) : "");
  const [options, setOptions] = useState<CountyOption[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState("");
  const listId = useId();
  const hidden = useRef<HTMLInputElement>(null);

  // Ask for the counties matching what is typed, once the typing pauses; a later answer wins.
  useEffect(() => {
    const query = text.trim();
    if (!open || query.length < 2 || (chosen && text === label(chosen))) {
      setOptions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/counties?q=${encodeURIComponent(query)}`, { signal: controller.signal, headers: { Accept: "application/json" } })
        .then((res) => (res.ok ? (res.json() as Promise<CountyOption[]>) : []))
        .then((found) => {
          setOptions(found);
          setActive(found.length ? 0 : -1);
          setStatus(found.length ? `${found.length} counties found` : "No county matches");
        })
        .catch(() => {
          if (!controller.signal.aborted) setStatus("Counties could not be loaded: check the connection and type again");
        });
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, open, chosen]);

  const choose = (county: CountyOption | null) => {
    setChosen(county);
    setText(county ? label(county) : "");
    setOpen(false);
    setOptions([]);
    setStatus(county ? `${label(county)} chosen` : "");
    onChoose?.(county);
    // Let the form (drafts, Conform) hear the hidden field change like a typed one.
    queueMicrotask(() => hidden.current?.dispatchEvent(new Event("input", { bubbles: true })));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" && options.length) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % options.length);
    } else if (event.key === "ArrowUp" && options.length) {
      event.preventDefault();
      setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
    } else if (event.key === "Enter" && open && active >= 0 && options[active]) {
      // Choose the county, not publish the post.
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const expanded = open && options.length > 0;
  return (
    <div className="relative">
      <label htmlFor={id} className="block text-sm font-medium text-stone-700">
        County
      </label>
      <input type="hidden" name={name} value={chosen?.fips ?? ""} ref={hidden} />
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        className="input min-h-11"
        placeholder="Type a county or state"
        value={text}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        data-testid="county-type-ahead"
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          if (chosen) {
            setChosen(null);
            onChoose?.(null);
          }
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Counties"
        hidden={!expanded}
        className="absolute z-20 mt-1 max-h-72 w-full overflow-y-auto rounded-md border border-stone-200 bg-white shadow-lg"
      >
        {options.map((county, index) => (
          // The keys are the box's (aria-activedescendant), as ARIA's list autocomplete has them.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={county.fips}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={`flex min-h-11 cursor-pointer items-center px-3 text-sm ${index === active ? "bg-field-50 text-bark-900" : "text-stone-800"}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(county)}
          >
            {label(county)}
          </li>
        ))}
      </ul>
      <p className="sr-only" role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}
