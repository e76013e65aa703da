import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useHydrated } from "~/utils/hydrated";
import { parseTags } from "~/utils/tags";
import { Field, FieldErrors } from "./field";

/**
 * The tag editor of posts and clubs. Without JavaScript: one comma-separated text field. With it:
 * chips added by Enter, a comma or the Add button and removed with ×. Each chip travels as its own
 * `name` value and the text still being typed is sent too, so nothing typed is lost; the schema
 * splits, trims, lower-cases and dedupes either shape by the one tag rule (`utils/tags.ts`), and the
 * chips show that rule's result.
 *
 * Past `max` a chip is refused and `onTooMany` tells the member (the server refuses too). A chip
 * added or removed is an input of the field: the form's validation sees the new list, so a "Too
 * many tags" shown while the count was over clears once it is back under (issue 31 N6).
 */
export function TagsInput({
  id,
  name,
  label = "Tags",
  defaultTags,
  errors,
  max,
  onTooMany,
  prefix = "",
  placeholder,
}: {
  id: string;
  name: string;
  label?: string;
  /** The tags to start with: a record's, or what a failed submission carried (`parseTags(initialValue)`). */
  defaultTags: string[];
  errors?: string[] | null;
  max: number;
  onTooMany?: () => void;
  /** Shown before each chip, e.g. "#" for hashtags. */
  prefix?: string;
  /** The placeholder of the comma-separated field (no JavaScript). */
  placeholder?: string;
}) {
  const hydrated = useHydrated();
  const [tags, setTags] = useState(defaultTags);
  const [draft, setDraft] = useState("");
  /** Why the last Add changed nothing (a tag already there), shown by the field until the next one. */
  const [notice, setNotice] = useState<string | null>(null);
  const errorId = `${id}-error`;
  const invalid = errors?.length ? true : undefined;
  const field = useRef<HTMLInputElement>(null);
  const shown = useRef(tags);
  useEffect(() => {
    if (shown.current === tags) return;
    shown.current = tags;
    // The hidden chip inputs changed without an input event of their own: send one for them.
    field.current?.dispatchEvent(new Event("input", { bubbles: true }));
  }, [tags]);

  if (!hydrated) {
    return (
      <Field id={id} label={label} errors={errors} hint={`Separate tags with commas (up to ${max})`}>
        <input
          id={id}
          name={name}
          type="text"
          className="input"
          defaultValue={defaultTags.join(", ")}
          placeholder={placeholder}
          aria-invalid={invalid}
          aria-describedby={`${id}-hint${invalid ? ` ${errorId}` : ""}`}
        />
      </Field>
    );
  }

  const add = () => {
    const next = [...tags];
    const seen = new Set(next.map((t) => t.toLowerCase()));
    const repeated: string[] = [];
    for (const tag of parseTags(draft)) {
      if (seen.has(tag.toLowerCase())) {
        repeated.push(tags.find((t) => t.toLowerCase() === tag.toLowerCase()) ?? tag);
        continue;
      }
      if (next.length >= max) {
        onTooMany?.();
        break;
      }
      seen.add(tag.toLowerCase());
      next.push(tag);
    }
    setTags(next);
    setDraft("");
    setNotice(
      repeated.length ? `${repeated.map((t) => `"${prefix}${t}"`).join(", ")} ${repeated.length === 1 ? "is" : "are"} already added` : null,
    );
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
        {label}
      </label>
      <div className="flex gap-2">
        <input
          ref={field}
          id={id}
          name={name}
          type="text"
          className="input"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Add a tag and press Enter"
          maxLength={50}
          aria-invalid={invalid}
          aria-describedby={`${id}-hint${invalid ? ` ${errorId}` : ""}`}
        />
        <button type="button" className="btn-secondary" onClick={add} disabled={!draft.trim()}>
          Add
        </button>
      </div>
      <p id={`${id}-hint`} className="mt-1 text-xs text-stone-500">
        {tags.length}/{max} tags
      </p>
      <p role="status" className="text-xs text-blaze-600" data-testid="tags-notice">
        {notice}
      </p>
      {tags.length ? (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label="Added tags" data-testid="editor-tags">
          {tags.map((tag) => (
            <li key={tag} className="badge gap-1 bg-bark-100 py-1 text-sm text-bark-800">
              <input type="hidden" name={name} value={tag} />
              {prefix}
              {tag}
              <button
                type="button"
                onClick={() => setTags(tags.filter((t) => t !== tag))}
                className="ml-1 rounded-full px-1 text-bark-800 hover:bg-bark-800/10"
                aria-label={`Remove tag ${tag}`}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}
