import { Form, Link, useActionData, useFetcher, useLocation, useSearchParams } from "react-router";
import { Suspense, useEffect, useId, useRef, type ComponentProps, type ReactNode } from "react";
import type { ModalDialog as RadixDialog } from "./dialog";
import { loadDialog, type DialogFormState } from "./dialog-form-state";
import { lazyPart } from "./lazy-part";
import { useIsPending } from "~/utils/remix";

/**
 * DialogForm: one form with two homes, so no function hides behind JavaScript (ARCHITECTURE.md,
 * idiom 5).
 *
 * - With JavaScript, the trigger opens a Radix dialog in place; the form posts through a fetcher, so
 *   the page stays put; the dialog closes when the action succeeds (it redirected, or `succeeded`
 *   says so of its answer) and stays open, showing the answer, when it did not.
 * - Without JavaScript, the trigger is a plain link to a URL carrying the dialog's param (`?edit=1`),
 *   and the page that owns that param renders the same form inline: a plain form posting to
 *   `action?edit=1`, so a failed post comes back to the inline form with its errors; Cancel is a
 *   link back (`closeHref`).
 *
 * ```tsx
 * const edit = useDialogForm("edit");    // dialog-form-state.ts: open or not + the param of the inline twin
 * <Link to="/clubs/7?edit=1" {...edit.triggerProps}>Edit Club</Link>   // anywhere, even on another page
 * <DialogForm<typeof action> dialog={edit} title="Edit Club" description="…" action="/clubs/7" intent="update">
 *   {(form) => (
 *     <form.Form method="post" action={form.action}>
 *       …fields, shown from form.data (the action's answer, typed)…
 *       {form.cancel}
 *       <button name="intent" value="update" disabled={form.busy}>{form.busy ? "Saving..." : "Save"}</button>
 *     </form.Form>
 *   )}
 * </DialogForm>
 * ```
 *
 * A page that shows the inline twin only to some viewers renders `<DialogForm>` only for them. A
 * card in a feed, whose no-JS twin lives on another page (the card links to `/post/7?edit=1`),
 * renders it with `inline={false}`: the dialog only, so a list of cards never shows their forms
 * inline. Radix loads only when a dialog first opens (hovering or focusing the trigger starts the
 * download), so pages that merely show a trigger stay light. Closing the dialog puts focus back on
 * the trigger that opened it, when that is still on screen. Should Radix's file not arrive (a weak
 * link), the form opens in a plain dialog instead (docs/decisions/0045).
 */

type ModalProps = ComponentProps<typeof RadixDialog>;
const ModalDialog = lazyPart<ModalProps>(() => loadDialog().then((m) => m.ModalDialog), PlainDialog);

/** The same dialog without Radix: an overlay and the panel; Escape or the form's Cancel closes it. */
function PlainDialog({ onClose, title, description, descriptionHidden, role, onCloseAutoFocus, children }: ModalProps) {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  // The latest callbacks, read when used: focus moves in once, on opening, and back once, on closing.
  const latest = useRef({ onClose, onCloseAutoFocus });
  latest.current = { onClose, onCloseAutoFocus };
  useEffect(() => {
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") latest.current.onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      latest.current.onCloseAutoFocus?.(new Event("close"));
    };
  }, []);
  return (
    <div className="fixed inset-0 z-50 bg-black/40">
      <div
        ref={panel}
        tabIndex={-1}
        role={role ?? "dialog"}
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="fixed left-1/2 top-1/2 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl"
      >
        <h2 id={`${id}-title`} className="text-lg font-bold text-bark-900">
          {title}
        </h2>
        <p id={`${id}-text`} className={descriptionHidden ? "sr-only" : "mt-2 text-sm text-stone-600"}>
          {description}
        </p>
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}

/**
 * What a dialog shows in place of a form whose code did not arrive (lazyPart's fallback for the edit
 * forms fetched on demand): why, and Cancel; opening it again asks for the code again.
 */
export function FormUnavailable({ form }: { form: Pick<DialogFormBag<unknown>, "cancel"> }) {
  return (
    <div className="space-y-4">
      <p role="alert" className="text-sm text-stone-700">
        This form could not be loaded over this connection. Close it and try again when the signal is better.
      </p>
      <div className="flex justify-end">{form.cancel}</div>
    </div>
  );
}

/** What the form inside gets: where and how to post, the last answer, and its busy state. */
export type DialogFormBag<A> = {
  mode: "dialog" | "page";
  /** A fetcher's Form in the dialog, Remix's Form inline. */
  Form: typeof Form;
  /** The URL to post to. */
  action: string;
  /** The action's last answer to this form (`useActionData` / `fetcher.data`). */
  data: ReturnType<typeof useActionData<A>>;
  busy: boolean;
  /** Cancel: closes the dialog, or links back from the inline form. */
  cancel: ReactNode;
};

type DialogFormProps<A> = {
  dialog: DialogFormState;
  title: string;
  description: string;
  /** Keep the description for screen readers only. */
  descriptionHidden?: boolean;
  /** "alertdialog" for a confirmation (delete). */
  role?: "dialog" | "alertdialog";
  /** The URL the form posts to. */
  action: string;
  /** The submit button's `intent`: the inline form's busy state follows a post with it. */
  intent: string;
  /** Where the inline form's Cancel goes; by default this page without the param. */
  closeHref?: string;
  /** An answer that means success (the default: only a redirect does). */
  succeeded?: (data: NonNullable<ReturnType<typeof useActionData<A>>>) => boolean;
  /** False where the no-JS twin lives on another page (a card in a feed): the dialog only. */
  inline?: boolean;
  /** Extra classes for the inline twin's section (its place in the page's layout). */
  className?: string;
  children: (form: DialogFormBag<A>) => ReactNode;
};

export function DialogForm<A = unknown>({ inline = true, ...props }: DialogFormProps<A>) {
  const [params] = useSearchParams();
  return (
    <>
      {props.dialog.open ? (
        <Suspense fallback={null}>
          <InDialog {...props} />
        </Suspense>
      ) : null}
      {inline && params.has(props.dialog.param) ? <Inline {...props} /> : null}
    </>
  );
}

function InDialog<A>({ dialog, title, description, descriptionHidden, role, action, succeeded, children }: DialogFormProps<A>) {
  const fetcher = useFetcher<A>();
  const { close } = dialog;
  // Close once the post this dialog sent has settled without a new failing answer: a redirect
  // leaves `data` as it was, a success answer is recognised by `succeeded`.
  const sent = useRef<{ before: unknown } | null>(null);
  useEffect(() => {
    if (fetcher.state !== "idle") {
      sent.current ??= { before: fetcher.data };
      return;
    }
    if (!sent.current) return;
    const { before } = sent.current;
    sent.current = null;
    const data = fetcher.data;
    if (data !== undefined && data !== null && data !== before && !succeeded?.(data)) return;
    close();
  }, [fetcher.state, fetcher.data, close, succeeded]);

  const bag: DialogFormBag<A> = {
    mode: "dialog",
    Form: fetcher.Form,
    action,
    data: fetcher.data,
    busy: fetcher.state !== "idle",
    cancel: (
      <button type="button" className="btn-secondary" onClick={close}>
        Cancel
      </button>
    ),
  };
  return (
    <ModalDialog
      open
      onClose={close}
      title={title}
      description={description}
      descriptionHidden={descriptionHidden}
      role={role}
      onCloseAutoFocus={(event) => {
        event.preventDefault();
        dialog.trigger.current?.focus();
      }}
    >
      {children(bag)}
    </ModalDialog>
  );
}

function Inline<A>({
  dialog,
  title,
  description,
  descriptionHidden,
  role,
  action,
  intent,
  closeHref,
  className,
  children,
}: DialogFormProps<A>) {
  const location = useLocation();
  const data = useActionData<A>();
  const busy = useIsPending({ intent });
  const back = closeHref ?? withoutParam(location, dialog.param);
  const bag: DialogFormBag<A> = {
    mode: "page",
    Form,
    action: withParam(action, dialog.param),
    data,
    busy,
    cancel: (
      <Link to={back} className="btn-secondary" preventScrollReset>
        Cancel
      </Link>
    ),
  };
  const titleId = `${dialog.param}-title`;
  const textId = `${dialog.param}-text`;
  const alert = role === "alertdialog";
  return (
    <section
      className={["card p-5", alert ? "border-red-200" : "", className ?? ""].filter(Boolean).join(" ")}
      role={alert ? "alertdialog" : undefined}
      aria-labelledby={titleId}
      aria-describedby={descriptionHidden ? undefined : textId}
    >
      <h2 id={titleId} className="text-lg font-bold text-bark-900">
        {title}
      </h2>
      {descriptionHidden ? null : (
        <p id={textId} className="mt-1 text-sm text-stone-600">
          {description}
        </p>
      )}
      <div className="mt-4">{children(bag)}</div>
    </section>
  );
}

function withParam(href: string, param: string): string {
  const url = new URL(href, "http://x");
  url.searchParams.set(param, "1");
  return `${url.pathname}${url.search}`;
}

function withoutParam(location: { pathname: string; search: string }, param: string): string {
  const params = new URLSearchParams(location.search);
  params.delete(param);
  const search = params.toString();
  return search ? `${location.pathname}?${search}` : location.pathname;
}

/**
 * The buttons of a confirmation (a `role="alertdialog"` DialogForm whose description asks "Are you
 * sure…"): Cancel, and a danger button (Delete by default; `label` / `busyLabel` for another verb,
 * such as Leave Club) posting `intent` (`delete` by default) with any hidden `fields`.
 */
export function DeleteConfirmForm({
  form,
  intent = "delete",
  fields,
  label = "Delete",
  busyLabel = "Deleting...",
}: {
  form: Pick<DialogFormBag<unknown>, "Form" | "action" | "busy" | "cancel">;
  intent?: string;
  fields?: ReactNode;
  label?: string;
  busyLabel?: string;
}) {
  return (
    <form.Form method="post" action={form.action} className="flex justify-end gap-3">
      {fields}
      {form.cancel}
      <button type="submit" name="intent" value={intent} className="btn-danger" disabled={form.busy}>
        {form.busy ? busyLabel : label}
      </button>
    </form.Form>
  );
}
