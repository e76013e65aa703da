import { GraphicPhotoField } from "./graphic-photo-field";
import type { SubmissionResult } from "@conform-to/react";
import { Suspense, useState } from "react";
import { POST_TYPES, POST_TYPE_LABELS } from "~/schemas/post-options";
import { useHydrated } from "~/utils/hydrated";
import type { PostActionData } from "~/schemas/post-intents";
import type { DialogFormBag } from "~/components/ui/dialog-form";
import { FormActions } from "~/components/ui/form-actions";
import { Field, FieldErrors } from "~/components/ui/field";
import { WithDraft } from "~/components/ui/draft-note";
import type { DraftBag } from "~/components/ui/use-draft";
import type { Post } from "~/schemas/shapes";
import { lazyPart } from "~/components/ui/lazy-part";
import { importAgain } from "~/utils/import-again";
import { fieldValuesOf, type FieldReportPicker, type FieldReportValues } from "~/schemas/field-report-form";
import { FieldReportPart } from "./field-report-part";

type EditablePost = Pick<Post, "id" | "title" | "content" | "type" | "mediaUrl" | "tags" | "sensitive"> & Partial<Pick<Post, "field">>;

const hasMediaField = (type: string) => type === "video" || type === "podcast";

/**
 * Members to mention under Content (ux-3 U20), fetched as the form shows: a static import would put
 * its file in the list every feed card preloads with this form, in the home's first load.
 */
const MentionSuggestions = lazyPart<{ fieldId: string }>(
  importAgain(
    () => import("./mention-suggestions"),
    (m) => m.MentionSuggestions,
  ),
  () => null,
);

/**
 * SPEC.md §2 Edit Post: Title, Content (6 rows), Post Type, Media URL (video and podcast), Tags
 * (comma-separated). The server validates with postUpdateSchema and answers a Conform reply, whose
 * values and messages this form shows, so a failed edit keeps what was typed. No validation library
 * ships to the browser: the card's dialog lives on the feed, whose JavaScript stays small.
 *
 * Rendered by the Edit Post DialogForm (dialogs.tsx): `form` says where and how to post (a fetcher
 * in the dialog, a plain form at /post/{id}?edit=1) and carries the action's last answer.
 *
 * SPEC.md §2: Media URL only for video and podcast. With JavaScript it shows as the type changes.
 * Without it, a video or podcast post shows the field and an article or opinion folds it into a
 * <details> ("only for video or podcast posts") that an author switching the type can open (ADR
 * 0024). Hidden or folded, its value is submitted, so editing never drops the stored link.
 */
export function PostEditForm({
  post,
  form: bag,
  fieldPicker,
}: {
  post: EditablePost;
  form: DialogFormBag<PostActionData>;
  /** The Field report part's lists without JavaScript (the post page at ?edit=1 has them). */
  fieldPicker?: FieldReportPicker | null;
}) {
  const { data } = bag;
  const failed = Boolean(data && data.intent === "update" && data.ok === false);
  return (
    <WithDraft
      formId={`edit-post-${post.id}`}
      name={`post-edit:${post.id}`}
      fields={EDIT_FIELDS}
      skipRestore={failed}
      confirmed={Boolean(data && data.intent === "update" && data.ok)}
    >
      {(draft) => <EditFields post={post} form={bag} draft={draft} fieldPicker={fieldPicker ?? null} />}
    </WithDraft>
  );
}

const EDIT_FIELDS = ["title", "content", "type", "mediaUrl", "tags"] as const;
const FIELD_KEYS = ["kind", "county", "observedOn", "rutPhase", "bucks", "does"] as const;

function EditFields({
  post,
  form: bag,
  draft,
  fieldPicker,
}: {
  post: EditablePost;
  form: DialogFormBag<PostActionData>;
  draft: DraftBag;
  fieldPicker: FieldReportPicker | null;
}) {
  const hydrated = useHydrated();
  const { data, busy } = bag;
  const result: SubmissionResult<string[]> | undefined =
    data && data.intent === "update" && data.ok === false && "result" in data ? data.result : undefined;
  const otherError = data && data.intent === "update" && data.ok === false && "error" in data ? data.error : undefined;

  // After a failed save the form shows exactly what was sent: a field missing from the reply was
  // sent empty (Conform leaves empty values out), so it stays empty rather than refilled. Otherwise
  // a local draft (or what was typed before hydration) comes before the stored post.
  const initial = (name: string, stored: string) => {
    if (!result) return draft.value(name) ?? stored;
    const value = result.initialValue?.[name];
    return typeof value === "string" ? value : "";
  };
  const errors = (name: string) => result?.error?.[name] ?? undefined;
  // The Field report part: as sent after a failed save or "List counties" (missing = sent empty), else the stored report.
  const sentField = result?.initialValue?.field;
  const fieldValues: FieldReportValues = result
    ? Object.fromEntries(
        FIELD_KEYS.map((key) => {
          const value = sentField && typeof sentField === "object" && !Array.isArray(sentField) ? sentField[key] : undefined;
          return [key, typeof value === "string" ? value : ""];
        }),
      )
    : fieldValuesOf(post.field);
  const picker = (data && data.intent === "update" && data.ok === false && "fieldPicker" in data ? data.fieldPicker : null) ?? fieldPicker;
  // After a failed save: the mark as sent (the hidden `off`, then `on` when ticked).
  const sent = result?.initialValue?.sensitive;
  const sentSensitive = result ? ([] as unknown[]).concat(sent ?? []).includes("on") : undefined;

  const [title, setTitle] = useState(() => initial("title", post.title));
  const [content, setContent] = useState(() => initial("content", post.content));
  const [type, setType] = useState(() => initial("type", post.type));
  const showMedia = !hydrated || hasMediaField(type) || Boolean(errors("mediaUrl"));
  // SPEC.md §5: Update is disabled while title or content is empty or a save runs (only once
  // JavaScript runs: a disabled button in plain HTML could never be re-enabled).
  const canSave = title.trim() !== "" && content.trim() !== "" && !busy;

  const id = (name: string) => `edit-${post.id}-${name}`;
  const mediaField = (
    <Field id={id("mediaUrl")} label="Media URL" errors={errors("mediaUrl")}>
      <input
        id={id("mediaUrl")}
        name="mediaUrl"
        type="url"
        inputMode="url"
        className="input"
        defaultValue={initial("mediaUrl", post.mediaUrl ?? "")}
        placeholder={type === "podcast" ? "Podcast URL" : "YouTube or video URL"}
        aria-invalid={errors("mediaUrl") ? true : undefined}
      />
    </Field>
  );
  const formErrors = [...(result?.error?.[""] ?? []), ...(otherError ? [otherError] : [])];

  return (
    <bag.Form
      id={`edit-post-${post.id}`}
      method="post"
      action={bag.action}
      className="space-y-4"
      noValidate
      aria-label="Edit Post"
      data-testid="edit-post-form"
    >
      <input type="hidden" name="redirectTo" value={`/post/${post.id}`} />
      <FieldErrors errors={formErrors} />
      <Field id={id("title")} label="Title" errors={errors("title")}>
        <input
          id={id("title")}
          name="title"
          className="input"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          maxLength={200}
          aria-invalid={errors("title") ? true : undefined}
          aria-describedby={errors("title") ? `${id("title")}-error` : undefined}
        />
      </Field>
      <Field id={id("content")} label="Content" errors={errors("content")}>
        <textarea
          id={id("content")}
          name="content"
          rows={6}
          className="input"
          value={content}
          onChange={(e) => setContent(e.target.value)}
          maxLength={10_000}
          aria-invalid={errors("content") ? true : undefined}
          aria-describedby={errors("content") ? `${id("content")}-error` : undefined}
        />
        <Suspense fallback={null}>
          <MentionSuggestions fieldId={id("content")} />
        </Suspense>
      </Field>
      <Field id={id("type")} label="Post Type" errors={errors("type")}>
        <select id={id("type")} name="type" className="input" value={type} onChange={(e) => setType(e.target.value)}>
          {POST_TYPES.map((t) => (
            <option key={t} value={t}>
              {POST_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </Field>
      {hydrated || hasMediaField(type) || errors("mediaUrl") ? (
        <div hidden={!showMedia}>{mediaField}</div>
      ) : (
        // No JavaScript, an article or opinion: the field is folded away (it is for video and
        // podcast posts), a click on its summary opens it for an author switching the type. Closed,
        // its value still travels with the form, so the stored link is kept.
        <details data-testid="edit-media-url">
          <summary className="cursor-pointer text-sm font-medium text-stone-700">Media URL (only for video or podcast posts)</summary>
          <div className="mt-2">{mediaField}</div>
        </details>
      )}
      {/* `off` first: an unticked box sends nothing, and an absent mark would keep the stored one (postUpdateSchema). */}
      <input type="hidden" name="sensitive" value="off" />
      <GraphicPhotoField id={id("sensitive")} name="sensitive" defaultChecked={sentSensitive ?? post.sensitive} />
      <FieldReportPart
        idPrefix={`edit-${post.id}`}
        values={fieldValues}
        errors={(key) => errors(key ? `field.${key}` : "field")}
        picker={picker ?? null}
      />
      <Field id={id("tags")} label="Tags" errors={errors("tags")} hint="Separate tags with commas">
        <input
          id={id("tags")}
          name="tags"
          className="input"
          defaultValue={initial("tags", (post.tags ?? []).join(", "))}
          placeholder="whitetail, hunting, tips"
          aria-invalid={errors("tags") ? true : undefined}
        />
      </Field>
      <FormActions
        form={bag}
        intent="update"
        label="Update Post"
        busyLabel="Updating..."
        busy={busy}
        disabled={hydrated && !canSave}
        className="flex justify-end gap-3 pt-2"
      />
    </bag.Form>
  );
}
