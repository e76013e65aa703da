import { getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { showToast } from "~/components/layout/toaster";
import { Field, FieldErrors } from "~/components/ui/field";
import { TagsInput } from "~/components/ui/tags-input";
import { CLUB_DESCRIPTION_MAX, CLUB_NAME_MAX, CLUB_RULES_MAX, CLUB_TAGS_MAX } from "~/schemas/club-options";
import { parseTags } from "~/utils/tags";

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
        className="relative mt-1 h-6 w-11 shrink-0 cursor-pointer appearance-none max-sm:h-11 max-sm:border-y-[10px] max-sm:border-transparent max-sm:bg-clip-padding rounded-full bg-stone-300 transition-colors before:absolute before:left-0.5 before:top-0.5 before:h-5 before:w-5 before:rounded-full before:bg-white before:shadow before:transition-transform before:content-[''] checked:bg-field-600 checked:before:translate-x-5"
      />
    </div>
  );
}

/** What a local draft of a club keeps (useDraft; Create Club and Edit Club): every field the member fills in. */
export const CLUB_DRAFT_FIELDS = [
  "name",
  "description",
  "imageUrl",
  "location",
  "memberLimit",
  "maxMembers",
  "isPrivate",
  "tags",
  "rules",
] as const;

type Meta = FieldMetadata<unknown>;

const tooManyTags = () => showToast({ title: "Too many tags", description: `Maximum ${CLUB_TAGS_MAX} tags allowed`, type: "error" });

/**
 * The club's fields (SPEC.md §2), shared by Create Club and Edit Club. The two differ where SPEC
 * makes them differ: the member limit is `memberLimit` (2 to 1000) on create and `maxMembers`
 * (2 to 100) on edit, and Edit Club takes its tags comma-separated while Create Club adds chips.
 */
export function ClubFields({
  fields,
  limit,
  privateByDefault,
  tags,
}: {
  fields: { name: Meta; description: Meta; imageUrl: Meta; location: Meta; isPrivate: Meta; tags: Meta; rules: Meta };
  limit: { field: Meta; label: string; max: number };
  /** The switch's state when the form carries none yet. */
  privateByDefault: boolean;
  tags: "chips" | "comma-separated";
}) {
  const tagErrors = Object.values(fields.tags.allErrors ?? {}).flat();
  return (
    <>
      <Field id={fields.name.id} label="Club name" errors={fields.name.errors}>
        <input
          {...getInputProps(fields.name, { type: "text" })}
          maxLength={CLUB_NAME_MAX}
          className="input"
          placeholder="Big Woods Whitetail Club"
        />
      </Field>
      <Field id={fields.description.id} label="Description" errors={fields.description.errors}>
        <textarea
          {...getTextareaProps(fields.description)}
          rows={4}
          maxLength={CLUB_DESCRIPTION_MAX}
          className="input"
          placeholder="Who the club is for, where you hunt and what you share"
        />
      </Field>
      <Field id={fields.imageUrl.id} label="Image URL (optional)" errors={fields.imageUrl.errors}>
        <input {...getInputProps(fields.imageUrl, { type: "url" })} inputMode="url" className="input" placeholder="https://" />
      </Field>
      <Field id={fields.location.id} label="Location (optional)" errors={fields.location.errors}>
        <input {...getInputProps(fields.location, { type: "text" })} maxLength={100} className="input" placeholder="City, State" />
      </Field>
      <div>
        <PrivateSwitch id={fields.isPrivate.id} defaultChecked={checkedFrom(fields.isPrivate.initialValue, privateByDefault)} />
        <FieldErrors errors={fields.isPrivate.errors} />
      </div>
      <Field
        id={limit.field.id}
        label={limit.label}
        errors={limit.field.errors}
        hint={`Between 2 and ${limit.max}. Leave empty for no limit.`}
      >
        <input
          {...getInputProps(limit.field, { type: "number" })}
          min={2}
          max={limit.max}
          step={1}
          className="input max-w-[12rem]"
          placeholder="Unlimited"
        />
      </Field>
      {tags === "chips" ? (
        <TagsInput
          id={fields.tags.id}
          name={fields.tags.name}
          defaultTags={parseTags(fields.tags.initialValue)}
          errors={tagErrors}
          max={CLUB_TAGS_MAX}
          onTooMany={tooManyTags}
          placeholder="rifle, deer camp, big woods"
        />
      ) : (
        <Field id={fields.tags.id} label="Tags" errors={tagErrors} hint="Separate tags with commas.">
          <input
            id={fields.tags.id}
            name={fields.tags.name}
            type="text"
            defaultValue={parseTags(fields.tags.initialValue).join(", ")}
            className="input"
            placeholder="rifle, deer camp"
          />
        </Field>
      )}
      <Field id={fields.rules.id} label="Rules (optional)" errors={fields.rules.errors}>
        <textarea
          {...getTextareaProps(fields.rules)}
          rows={4}
          maxLength={CLUB_RULES_MAX}
          className="input"
          placeholder={"Be respectful.\nNo sharing exact stand locations."}
        />
      </Field>
    </>
  );
}
