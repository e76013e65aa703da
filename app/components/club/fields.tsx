import { useState, type KeyboardEvent } from "react";
import { CLUB_TAGS_MAX } from "~/schemas/club";
import { useHydrated } from "~/utils/hydrated";
import { FieldErrors } from "~/components/ui/field";

/** Read a checkbox's value back from a failed submission (the hidden "false" comes first). */
export function checkedFrom(initial: unknown, fallback: boolean): boolean {
  if (initial === undefined || initial === null) return fallback;
  const values = Array.isArray(initial) ? initial : [initial];
  const last = values[values.length - 1];
  return last === "true" || last === "on" || last === true;
}

/**
 * The Private Club switch: a real checkbox (styled as a switch) after a hidden `false`, so a form
 * post without JavaScript says "false" when the box is cleared and "true" when it is ticked, and
 * the default (on) is honest.
 */
export function PrivateSwitch({ id, name = "isPrivate", defaultChecked }: { id: string; name?: string; defaultChecked: boolean }) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border border-stone-200 p-4">
      <div>
        <label htmlFor={id} className="label mb-0">
          Private Club
        </label>
        <p id={`${id}-hint`} className="text-xs text-stone-500">
          Private clubs approve each member; only members see their posts and invites.
        </p>
      </div>
      <input type="hidden" name={name} value="false" />
      <input
        id={id}
        type="checkbox"
        role="switch"
        name={name}
        value="true"
        defaultChecked={defaultChecked}
        aria-describedby={`${id}-hint`}
        className="relative mt-1 h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-stone-300 transition-colors before:absolute before:left-0.5 before:top-0.5 before:h-5 before:w-5 before:rounded-full before:bg-white before:shadow before:transition-transform before:content-[''] checked:bg-field-600 checked:before:translate-x-5"
      />
    </div>
  );
}

function splitTags(text: string): string[] {
  return text
    .split(",")
    .map((t) => t.trim().replace(/\s+/g, " "))
    .filter(Boolean);
}

function addUnique(existing: string[], more: string[]): string[] {
  const seen = new Set(existing.map((t) => t.toLowerCase()));
  const out = [...existing];
  for (const tag of more) {
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

/**
 * Club tags. Without JavaScript: one comma-separated text field. With it: chips added by Enter or
 * the Add button, each sent as its own `tags` value (the text still being typed is sent too, so
 * nothing typed is lost). The schema accepts both shapes.
 */
export function TagsInput({ id, name = "tags", defaultTags, errors }: { id: string; name?: string; defaultTags: string[]; errors?: string[] }) {
  const hydrated = useHydrated();
  const [tags, setTags] = useState(defaultTags);
  const [draft, setDraft] = useState("");

  const add = () => {
    const more = splitTags(draft);
    if (!more.length) return;
    setTags((current) => addUnique(current, more));
    setDraft("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      add();
    }
  };

  return (
    <div>
      <label htmlFor={id} className="label">
        Tags
      </label>
      {hydrated ? (
        <>
          {tags.length ? (
            <ul className="mb-2 flex flex-wrap gap-2" aria-label="Tags added">
              {tags.map((tag) => (
                <li key={tag} className="badge gap-1 bg-field-600/10 py-1 text-field-700">
                  <input type="hidden" name={name} value={tag} />
                  {tag}
                  <button
                    type="button"
                    className="ml-1 text-field-700 hover:text-red-700"
                    aria-label={`Remove tag ${tag}`}
                    onClick={() => setTags((current) => current.filter((t) => t !== tag))}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="flex gap-2">
            <input
              id={id}
              type="text"
              name={name}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onKeyDown}
              className="input"
              placeholder="Type a tag and press Enter"
              aria-describedby={`${id}-hint`}
              disabled={tags.length >= CLUB_TAGS_MAX}
            />
            <button type="button" className="btn-secondary" onClick={add}>
              Add
            </button>
          </div>
        </>
      ) : (
        <input
          id={id}
          type="text"
          name={name}
          defaultValue={defaultTags.join(", ")}
          className="input"
          placeholder="rifle, deer camp, big woods"
          aria-describedby={`${id}-hint`}
        />
      )}
      <p id={`${id}-hint`} className="mt-1 text-xs text-stone-500">
        {hydrated ? "Press Enter or Add after each tag." : "Separate tags with commas."}
      </p>
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** The tags a failed submission carried, back as a list. */
export function tagsFrom(initial: unknown): string[] {
  if (initial === undefined || initial === null) return [];
  const values = Array.isArray(initial) ? initial : [initial];
  return addUnique([], values.filter((v): v is string => typeof v === "string").flatMap(splitTags));
}
