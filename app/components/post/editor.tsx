import { getCollectionProps, getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { IdempotencyKeyInput } from "~/components/ui/idempotency-key";
import { useBrowserValidation } from "~/utils/browser-validation";
import { Form, Link } from "react-router";
import { Suspense, useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { SHARED_PARAM, takeShare, type SharedFromPhone } from "~/offline/share-inbox";
import type { UploadedFile } from "~/schemas/media-options";
import { MAX_TAGS, POST_TYPES, POST_TYPE_LABELS, type PostType } from "~/schemas/post-options";
import { useIsPending } from "~/utils/remix";
import { parseTags } from "~/utils/tags";
import { draftUploads, MediaUpload, type PublishGate } from "./media-upload";
import { TypeSuggestion } from "./type-suggestion";
import { GraphicPhotoField } from "./graphic-photo-field";
import { MentionSuggestions } from "./mention-suggestions";
import { showToast } from "~/components/layout/toaster";
import { Field, FieldErrors, FormRefusal } from "~/components/ui/field";
import { TagsInput } from "~/components/ui/tags-input";
import { DraftNote } from "~/components/ui/draft-note";
import { useDraft, type DraftBag } from "~/components/ui/use-draft";
import { lazyPart } from "~/components/ui/lazy-part";
import { importAgain } from "~/utils/import-again";
import { FIELD_COUNTY_LABEL_NAME, type FieldReportPicker, type FieldReportValues } from "~/schemas/field-report-form";
import { FIELD_DRAFT_FIELDS, FieldReportPart } from "./field-report-part";

const TYPE_DESCRIPTIONS: Record<PostType, string> = {
  article: "In-depth guides and tutorials",
  opinion: "Share your thoughts and experiences",
  video: "Video content and reviews",
  podcast: "Audio content and discussions",
};

export type PostEditorProps = {
  /**
   * The action's Conform reply after a failed submission: the form shows it and keeps every value,
   * `uploads` included (files a plain form already stored, shown again ticked).
   */
  lastResult?: (SubmissionResult<string[]> & { uploads?: UploadedFile[]; fieldPicker?: FieldReportPicker }) | null;
  /**
   * The Field report part's county lists and defaults (web/field-report-picker.server.ts): the
   * member's home county, today, the plain selects. A "List counties" reply brings its own.
   */
  fieldPicker?: FieldReportPicker | null;
  /**
   * What was shared into the site from a phone (the share target, ADR 0092): the form opens with it
   * instead of a kept draft, its files attached like a failed submission's.
   */
  prefill?: { title: string; content: string; mediaUrl: string; uploads: UploadedFile[] } | null;
  /** /clubs/{id}/create: the club the post belongs to (sent as a hidden field). */
  clubId?: number;
  /** Shown above the form, e.g. the club banner on /clubs/{id}/create. */
  banner?: ReactNode;
  /** Where Cancel goes (SPEC.md: home). */
  cancelHref?: string;
  /** The file-upload widget (files travel in this multipart form); MediaUpload by default. */
  uploadSlot?: ReactNode;
  /** The live link preview of the media URL being typed; EditorLinkPreview by default. */
  renderLinkPreview?: (mediaUrl: string) => ReactNode;
};

/**
 * The live link preview (and the card code it shares with the feed) comes when a URL is typed (ADR
 * 0044); when its file cannot be fetched, the editor goes on without a preview (ADR 0045).
 */
const EditorLinkPreview = lazyPart<{ url: string }>(
  importAgain(
    () => import("./live-link-preview"),
    (m) => m.EditorLinkPreview,
  ),
  NoPreview,
);
function NoPreview() {
  return null;
}

/**
 * THE post editor (SPEC.md §2 Create post), for /create and /clubs/{id}/create: the four content
 * types as real radio inputs (Article by default), title, media URL, a content box that grows to
 * 500px, and tags. One schema (postInputSchema) validates here with Conform and again on the server.
 * Tags: with JavaScript, chips added by Enter or the Add button; without it, a comma-separated field.
 * The form is multipart so the media issue can send files with the post.
 */
export function PostEditor(props: PostEditorProps) {
  const fromPhone = useSharedFromPhone();
  const draft = useDraft({
    formId: EDITOR_ID,
    name: props.clubId === undefined ? "post-create" : `post-create:club-${props.clubId}`,
    fields: DRAFT_FIELDS,
    skipRestore: Boolean(props.lastResult || props.prefill || fromPhone.expected),
  });
  return <PostEditorForm key={draft.version} {...props} draft={draft} fromPhone={fromPhone.share} />;
}

/**
 * What the service worker kept from a phone's share (`?shared=`, ADR 0092), taken from the share
 * inbox once the editor runs: its text fills the fields still empty, its files go to the upload
 * widget as if chosen here. `expected` is known at once, so no kept draft replaces the form meanwhile.
 */
function useSharedFromPhone(): { expected: boolean; share: SharedFromPhone | null } {
  const [id] = useState(() => (typeof window === "undefined" ? null : new URLSearchParams(window.location.search).get(SHARED_PARAM)));
  const [share, setShare] = useState<SharedFromPhone | null>(null);
  useEffect(() => {
    if (!id) return;
    let live = true;
    void takeShare(id).then((taken) => {
      if (live && taken) setShare(taken);
    });
    return () => {
      live = false;
    };
  }, [id]);
  return { expected: Boolean(id), share };
}

/** Fill a field the member left empty, as typing would (React's and Conform's listeners hear it). */
function fillEmpty(form: HTMLFormElement, name: string, value: string) {
  const field = form.elements.namedItem(name);
  if (!value || !(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) || field.value) return;
  const prototype = field instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, value);
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

const EDITOR_ID = "post-editor";
/** What a draft of a post keeps (useDraft): every field the member fills in, uploads included. */
export const DRAFT_FIELDS = ["type", "title", "mediaUrl", "content", "tags", "uploadedFiles", "sensitive", ...FIELD_DRAFT_FIELDS] as const;

function PostEditorForm({
  lastResult,
  prefill,
  fromPhone,
  clubId,
  fieldPicker,
  banner,
  cancelHref = "/",
  uploadSlot,
  renderLinkPreview = (url: string) =>
    url.trim() ? (
      <Suspense fallback={null}>
        <EditorLinkPreview url={url} />
      </Suspense>
    ) : null,
  draft,
}: PostEditorProps & { draft: DraftBag; fromPhone: SharedFromPhone | null }) {
  const busy = useIsPending();
  const [form, fields] = useForm({
    id: EDITOR_ID,
    lastResult,
    defaultValue: {
      type: draft.value("type") ?? "article",
      title: prefill?.title || draft.value("title"),
      mediaUrl: prefill?.mediaUrl || draft.value("mediaUrl"),
      content: prefill?.content || draft.value("content"),
      tags: draft.list("tags")?.join(", "),
      sensitive: draft.value("sensitive"),
    },
    // Messages appear on the first Publish, then follow the typing (validating on blur would move
    // the Publish button under the pointer as a message appears).
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: useBrowserValidation(() => import("~/schemas/post").then((m) => m.postInputSchema)),
  });
  const initialMediaUrl = typeof fields.mediaUrl.initialValue === "string" ? fields.mediaUrl.initialValue : "";
  const [mediaUrl, setMediaUrl] = useState(initialMediaUrl);
  // Publish while files upload: a valid form waits for them and goes by itself (media-upload.tsx).
  const gate = useRef<PublishGate | null>(null);
  const formProps = getFormProps(form);
  // A phone's share, once taken from the inbox: its text where nothing was typed yet.
  useEffect(() => {
    const element = fromPhone ? document.getElementById(form.id) : null;
    if (!fromPhone || !(element instanceof HTMLFormElement)) return;
    fillEmpty(element, fields.title.name, fromPhone.title);
    fillEmpty(element, fields.content.name, fromPhone.text);
    fillEmpty(element, fields.mediaUrl.name, fromPhone.url);
  }, [fromPhone, form.id, fields.title.name, fields.content.name, fields.mediaUrl.name]);
  const { key: _sensitiveKey, ...sensitiveInput } = getInputProps(fields.sensitive, { type: "checkbox" });
  // The Field report part: what was sent (a reply), else a kept draft; its messages as Conform has them.
  const fieldValues = fieldValuesFrom(lastResult, draft);
  const fieldErrors = (key: string) => form.allErrors[key ? `field.${key}` : "field"];
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    formProps.onSubmit(event);
    if (!event.defaultPrevented && gate.current?.hold(event.currentTarget)) event.preventDefault();
  };

  return (
    <div className="space-y-6">
      {banner}
      <DraftNote draft={draft} />
      <Form
        method="post"
        encType="multipart/form-data"
        {...formProps}
        onSubmit={onSubmit}
        className="card space-y-6 p-6"
        aria-label="Create Post"
      >
        <IdempotencyKeyInput />
        {clubId !== undefined ? <input type="hidden" name="clubId" value={clubId} /> : null}
        <FormRefusal id={form.errorId} errors={form.errors} reply={lastResult} />

        <fieldset>
          <legend className="label">Content type</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {getCollectionProps(fields.type, { type: "radio", options: [...POST_TYPES] }).map(({ key, ...props }) => {
              const type = props.value as PostType;
              return (
                <label
                  key={key}
                  htmlFor={props.id}
                  className="flex cursor-pointer items-start gap-3 rounded-lg border border-stone-200 p-4 hover:border-field-500 has-[:checked]:border-blaze-500 has-[:checked]:bg-blaze-500/5"
                >
                  <input {...props} className="mt-1 h-4 w-4 accent-blaze-500" />
                  <span>
                    <span className="block font-semibold text-bark-900">{POST_TYPE_LABELS[type]}</span>
                    <span className="block text-sm text-stone-600">{TYPE_DESCRIPTIONS[type]}</span>
                  </span>
                </label>
              );
            })}
          </div>
          <FieldErrors id={fields.type.errorId} errors={fields.type.errors} />
        </fieldset>

        <Field id={fields.title.id} label="Title" errors={fields.title.errors}>
          <input
            {...getInputProps(fields.title, { type: "text" })}
            maxLength={200}
            className="input"
            placeholder="Give your post a title"
          />
        </Field>

        <Field
          id={fields.mediaUrl.id}
          label="Media URL (optional)"
          errors={fields.mediaUrl.errors}
          hint="A YouTube video, podcast episode or article link"
        >
          <input
            {...getInputProps(fields.mediaUrl, { type: "url" })}
            inputMode="url"
            className="input"
            placeholder="https://"
            onChange={(e) => setMediaUrl(e.target.value)}
          />
        </Field>
        <TypeSuggestion
          mediaUrl={mediaUrl}
          type={(fields.type.value as PostType | undefined) ?? "article"}
          onAccept={(type) => form.update({ name: fields.type.name, value: type })}
        />
        {/* Link-preview slot (media issue): a live preview of the media URL being typed. */}
        {renderLinkPreview ? renderLinkPreview(mediaUrl) : null}

        <Field id={fields.content.id} label="Content" errors={fields.content.errors}>
          <GrowingTextarea {...getTextareaProps(fields.content)} />
          <MentionSuggestions fieldId={fields.content.id} />
        </Field>

        {/* Upload slot (media issue): images, videos and audio, with per-file progress and removal. */}
        {uploadSlot ?? (
          <MediaUpload
            initialFiles={lastResult?.uploads ?? prefill?.uploads ?? draftUploads(draft.list("uploadedFiles"))}
            pendingFiles={draft.files}
            arrivingFiles={fromPhone?.files}
            gate={gate}
            ready={draft.settled}
          />
        )}

        <GraphicPhotoField {...sensitiveInput} />

        <FieldReportPart
          idPrefix={form.id}
          values={fieldValues}
          countyLabel={lastResult ? undefined : draft.value(FIELD_COUNTY_LABEL_NAME)}
          errors={fieldErrors}
          picker={lastResult?.fieldPicker ?? fieldPicker ?? null}
        />

        <TagsInput
          id={fields.tags.id}
          name={fields.tags.name}
          defaultTags={parseTags(fields.tags.initialValue)}
          errors={fields.tags.errors}
          max={MAX_TAGS}
          onTooMany={() => showToast(TOO_MANY_TAGS)}
          prefix="#"
          placeholder="whitetail, hunting, tips"
        />

        <div className="flex justify-end gap-3 border-t border-stone-100 pt-4">
          <Link to={cancelHref} className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={busy}>
            {busy ? "Publishing..." : "Publish Post"}
          </button>
        </div>
      </Form>
    </div>
  );
}

const FIELD_KEYS = ["kind", "county", "observedOn", "rutPhase", "bucks", "does"] as const;

/** The Field report's values as the form last sent them (Conform's nested `field`), else as a draft kept them. */
function fieldValuesFrom(lastResult: PostEditorProps["lastResult"], draft: DraftBag): FieldReportValues {
  const values: FieldReportValues = {};
  const sent = lastResult?.initialValue?.field;
  for (const key of FIELD_KEYS) {
    if (lastResult) {
      // Sent with the part: a field missing from the reply was sent empty (Conform leaves those out).
      const value = sent && typeof sent === "object" && !Array.isArray(sent) ? sent[key] : undefined;
      if (sent) values[key] = typeof value === "string" ? value : "";
    } else {
      const value = draft.value(`field.${key}`);
      if (typeof value === "string") values[key] = value;
    }
  }
  return values;
}

/** The content box grows with its text up to 500px, then scrolls (SPEC.md §9). */
function GrowingTextarea(props: ReturnType<typeof getTextareaProps>) {
  const ref = useRef<HTMLTextAreaElement | null>(null);
  const grow = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight + 2, 500)}px`;
  }, []);
  const setRef = useCallback(
    (el: HTMLTextAreaElement | null) => {
      ref.current = el;
      grow();
    },
    [grow],
  );
  return (
    <textarea
      {...props}
      ref={setRef}
      rows={8}
      maxLength={10_000}
      onInput={grow}
      className="input max-h-[500px] min-h-[12rem] resize-y [field-sizing:content]"
      placeholder="Share your knowledge, stories or thoughts..."
      data-testid="post-content-input"
    />
  );
}

const TOO_MANY_TAGS = { title: "Too many tags", description: `Maximum ${MAX_TAGS} tags allowed`, type: "error" } as const;
