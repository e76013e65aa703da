import { useNavigation, useRouteLoaderData } from "react-router";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { DRAFT_SENT_EVENT } from "~/offline/outbox-client";
import { useHydrated } from "~/utils/hydrated";
import {
  browserStorage,
  clearDrafts,
  loadDraft,
  removeDraft,
  reopenDrafts,
  sameValues,
  saveDraft,
  type DraftValues,
} from "~/offline/drafts";

/**
 * useDraft: the one local-draft hook of every form a member types into (issue 12, ADR 0031).
 *
 * - **Keeps** the form's named `fields` in localStorage (offline/drafts.ts), per member and `name`
 *   (e.g. `post-edit:7`), 400 ms after the last change, at once on submit, and when the page is
 *   hidden; nothing is kept while the form still shows what the server rendered.
 * - **Restores** a kept draft when the form mounts (after a reload, a crash, Back, a dropped send or
 *   a sign-in round trip), except when `skipRestore` says the server re-rendered the form after a
 *   refusal: that already shows what was typed. `restoredAt` is then set for the quiet note
 *   (DraftNote) whose Discard calls `discard`.
 * - **Input made before hydration** wins over both: what the member typed or chose into the server's
 *   plain controls is read from the page as React takes over, and handed to the form as `values`
 *   (and `files`), so a control that JavaScript replaces (the tag chips, the upload widget) starts
 *   from it instead of dropping it.
 * - **Removed** once the server confirms: a redirect after this form's submit (other than to sign
 *   in), or `clear()` from a form whose success is an answer (a fetcher's `ok`).
 *
 * - **Nothing typed in between is lost** (issue 43 item 3): between the read and the re-created
 *   form's arrival the browser goes on handling keystrokes, into the old form. As the new form
 *   arrives (a layout effect: before the browser handles another), what a text field of the old one
 *   gained since the read is carried over, and the control the member was typing in has the focus
 *   and caret again. (Reading and re-creating in one layout effect instead made React 18 fail the
 *   hydration now and then, error #345, leaving the page without its scripts.)
 *
 * The form renders with `key={draft.version}` (or inside `<WithDraft>`, draft-note.tsx) and takes its starting values from `draft.values`
 * when set (the server's otherwise): a restore or discard re-creates it with those values, which works
 * the same for plain, Conform-managed and controlled fields. A value of a field may be carried in its
 * control's `data-draft` attribute instead of `value` (an uploaded file's JSON beside its URL).
 */
export type DraftOptions = {
  /** The id of the <form> element. */
  formId: string;
  /** What the draft is of: form and target, e.g. `comment:12`. The member is added here. */
  name: string;
  /** The field names kept (never hidden bookkeeping such as redirectTo or an idempotency key). */
  fields: readonly string[];
  /** The server re-rendered the form with what was sent (a validation error): do not restore over it. */
  skipRestore?: boolean;
  /** The server's answer said it was saved (a fetcher's `ok`): the draft is removed. */
  confirmed?: boolean;
};

export type DraftState = {
  version: number;
  values: DraftValues | null;
  files: File[];
  restoredAt: number | null;
  /**
   * The mount's read is done and its answer drawn (the form re-created or kept): until then a
   * control that JavaScript swaps in (the upload widget) keeps the server's, so what is chosen in
   * that moment goes where the read, or the swap, finds it (issue 43 item 3). A form first drawn in
   * the browser starts settled.
   */
  settled: boolean;
};

const DEBOUNCE_MS = 400;

/** A layout effect in the browser; the server renders no effects (and React 18 warns of layout ones there). */
const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

type TextControl = HTMLInputElement | HTMLTextAreaElement;
const TEXT_TYPES = new Set(["text", "search", "url", "email", "tel", "number"]);

/** The text fields of a form with their values as read, to find what was typed into them after. */
type TextSnapshot = Map<TextControl, string>;

function textFields(form: HTMLFormElement, names: readonly string[]): TextSnapshot {
  const out: TextSnapshot = new Map();
  for (const el of Array.from(form.elements)) {
    const text = el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TEXT_TYPES.has(el.type));
    if (text && names.includes((el as TextControl).name)) out.set(el as TextControl, (el as TextControl).value);
  }
  return out;
}

/** The re-created form's control that stands for an old one: the same id, else the same name. */
function counterpart(form: HTMLFormElement, old: TextControl): TextControl | null {
  const byId = old.id ? document.getElementById(old.id) : null;
  const byName = old.name ? form.elements.namedItem(old.name) : null;
  const el = byId ?? (byName instanceof Element ? byName : null);
  return (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el !== old ? el : null;
}

/**
 * The old form's text fields as read, and which of them the member typed into since: only an input
 * event says so. A value that changed without one is React's, not the member's (a controlled field
 * drawn again from its state, which never saw what was typed before hydration, puts the server's
 * text back), and carrying it would overwrite what was typed.
 */
type Reading = { read: TextSnapshot; typed: Set<TextControl>; stop: () => void };

function readTyping(form: HTMLFormElement, names: readonly string[]): Reading {
  const read = textFields(form, names);
  const typed = new Set<TextControl>();
  const onInput = (event: Event) => {
    const el = event.target as TextControl;
    if (read.has(el)) typed.add(el);
  };
  form.addEventListener("input", onInput, true);
  return { read, typed, stop: () => form.removeEventListener("input", onInput, true) };
}

/**
 * Into the re-created form: what was typed into the old form's text fields after it was read (into
 * a field of the new form that still shows the value read).
 */
function carryTyping({ read, typed }: Reading, form: HTMLFormElement): void {
  for (const old of typed) {
    const wasRead = read.get(old)!;
    if (old.value === wasRead) continue;
    const el = counterpart(form, old);
    if (el && el.value === wasRead) el.value = old.value;
  }
}

/** The control the member was typing in when the form was read, if it is one of the form's. */
function focusIn(form: HTMLFormElement): TextControl | null {
  const el = document.activeElement;
  return (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.form === form ? el : null;
}

/** Focus and caret from the old control to its counterpart (inputs without a text caret: focus alone). */
function refocus(form: HTMLFormElement, old: TextControl): void {
  const el = counterpart(form, old);
  if (!el || el.disabled) return;
  el.focus({ preventScroll: true });
  try {
    const { selectionStart: start, selectionEnd: end } = old;
    if (start !== null) el.setSelectionRange(Math.min(start, el.value.length), Math.min(end ?? start, el.value.length));
  } catch {
    // An email or number input has no caret to read or place.
  }
}
const SIGN_IN_PATH = "/auth";

export function useDraft({ formId, name: key, fields, skipRestore = false, confirmed = false }: DraftOptions) {
  const memberId = useRouteLoaderData<{ user?: { id: number } | null }>("root")?.user?.id ?? null;
  const hydrated = useHydrated();
  const [state, setState] = useState<DraftState>(() => ({ version: 0, values: null, files: [], restoredAt: null, settled: hydrated }));
  const baseline = useRef<DraftValues | null>(null);
  const submitted = useRef(false);
  const cleared = useRef(false);
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;
  /** Where the member was typing as the form of `version` was read, for its re-created successor. */
  const typingIn = useRef<{ mark: TextControl | null; version: number; reading: Reading | null } | null>(null);

  // Mount: what the member typed before hydration, else the kept draft.
  useEffect(() => {
    const form = document.getElementById(formId);
    const settle = () => setState((s) => (s.settled ? s : { ...s, settled: true }));
    if (!(form instanceof HTMLFormElement)) return settle();
    const storage = browserStorage();
    const names = fieldsRef.current;
    baseline.current = readForm(form, names, "default");
    const live = readForm(form, names, "current");
    const files = chosenFiles(form);
    if (storage && memberId !== null) clearDrafts(storage, { keepMember: memberId });
    if (!sameValues(live, baseline.current) || files.length) {
      if (storage && memberId !== null) saveDraft(storage, memberId, key, live);
      typingIn.current = { mark: focusIn(form), version: state.version, reading: readTyping(form, names) };
      setState((s) => ({ version: s.version + 1, values: live, files, restoredAt: null, settled: true }));
      return;
    }
    if (skipRestore || !storage || memberId === null) return settle();
    const stored = loadDraft(storage, memberId, key);
    if (!stored) return settle();
    if (sameValues(stored.values, baseline.current)) {
      removeDraft(storage, memberId, key);
      return settle();
    }
    // A kept draft replaces the fields: only the caret is carried, not what was typed over it.
    typingIn.current = { mark: focusIn(form), version: state.version, reading: null };
    setState((s) => ({ version: s.version + 1, values: stored.values, files: [], restoredAt: stored.savedAt, settled: true }));
    // Only on mount and when the form, the target or the member changes; skipRestore is read once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [formId, key, memberId]);

  // The re-created form (a later version than the one read): what was typed meanwhile, and the
  // member's caret back where it was.
  useBrowserLayoutEffect(() => {
    const taken = typingIn.current;
    if (!taken || taken.version === state.version) return;
    typingIn.current = null;
    taken.reading?.stop();
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    if (taken.reading) carryTyping(taken.reading, form);
    if (taken.mark) refocus(form, taken.mark);
  }, [formId, state.version]);

  // Keep: as the member types (and as JavaScript widgets add chips or uploads), on submit, on hide.
  useEffect(() => {
    const form = document.getElementById(formId);
    const storage = browserStorage();
    if (!(form instanceof HTMLFormElement) || !storage || memberId === null) return;
    reopenDrafts();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const save = () => {
      clearTimeout(timer);
      timer = undefined;
      typing = false;
      if (cleared.current) return;
      const values = readForm(form, fieldsRef.current, "current");
      if (baseline.current && sameValues(values, baseline.current)) removeDraft(storage, memberId, key);
      else saveDraft(storage, memberId, key, values);
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(save, DEBOUNCE_MS);
    };
    let typing = false;
    const typed = () => {
      submitted.current = false;
      cleared.current = false;
      typing = true;
      later();
    };
    const onSubmit = () => {
      save();
      submitted.current = true;
    };
    const flush = () => {
      if (timer !== undefined) save();
    };
    // Leaving the form (or its re-creation by a restore or discard): only keystrokes still waiting
    // are kept, never the old form's values over a newer draft.
    const leave = () => {
      if (typing) save();
      clearTimeout(timer);
    };
    const observer = new MutationObserver(later);
    observer.observe(form, { childList: true, subtree: true });
    form.addEventListener("input", typed);
    form.addEventListener("change", typed);
    form.addEventListener("submit", onSubmit);
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", flush);
    return () => {
      leave();
      observer.disconnect();
      form.removeEventListener("input", typed);
      form.removeEventListener("change", typed);
      form.removeEventListener("submit", onSubmit);
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("visibilitychange", flush);
    };
  }, [formId, key, memberId, state.version]);

  const clear = useCallback(() => {
    cleared.current = true;
    submitted.current = false;
    const storage = browserStorage();
    if (storage && memberId !== null) removeDraft(storage, memberId, key);
    // The form's starting values are the server's again (a form that stays, like the comment box, resets to empty).
    setState((s) => (s.restoredAt === null && s.values === null ? s : { ...s, values: null, files: [], restoredAt: null }));
  }, [key, memberId]);

  const discard = useCallback(() => {
    cleared.current = true;
    const storage = browserStorage();
    if (storage && memberId !== null) removeDraft(storage, memberId, key);
    setState((s) => ({ ...s, version: s.version + 1, values: null, files: [], restoredAt: null }));
  }, [key, memberId]);

  // The outbox sent the send this draft was kept for (ADR 0034): the form starts empty again.
  useEffect(() => {
    const sent = (event: Event) => {
      if ((event as CustomEvent<string>).detail === key) discard();
    };
    window.addEventListener(DRAFT_SENT_EVENT, sent);
    return () => window.removeEventListener(DRAFT_SENT_EVENT, sent);
  }, [key, discard]);

  useEffect(() => {
    if (confirmed) clear();
  }, [confirmed, clear]);

  // The server confirmed: this form's post ended in a redirect that is not to sign in.
  const navigation = useNavigation();
  useEffect(() => {
    if (!submitted.current || navigation.state !== "loading") return;
    const redirected = (navigation.location.state as { _isRedirect?: boolean } | null)?._isRedirect === true;
    if (redirected && navigation.location.pathname !== SIGN_IN_PATH) clear();
  }, [navigation, clear]);

  /** A field's kept value (the last, as a form post reads a checkbox after its hidden "false"). */
  const value = (name: string): string | undefined => state.values?.[name]?.at(-1);
  const list = (name: string): string[] | undefined => state.values?.[name];
  return { ...state, clear, discard, value, list };
}

export type DraftBag = ReturnType<typeof useDraft>;

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The form's kept fields as they are now, or as the server rendered them (`default`). */
export function readForm(form: HTMLFormElement, names: readonly string[], which: "current" | "default"): DraftValues {
  const out: DraftValues = Object.fromEntries(names.map((name) => [name, [] as string[]]));
  const now = which === "current";
  for (const el of Array.from(form.elements) as Control[]) {
    if (!el.name || !(el.name in out) || el.disabled) continue;
    const push = (v: string) => out[el.name].push(el.dataset.draft ?? v);
    if (el instanceof HTMLSelectElement) {
      const options = Array.from(el.options);
      const chosen = options.filter((o) => (now ? o.selected : o.defaultSelected));
      (chosen.length || now ? chosen : options.slice(0, 1)).forEach((o) => push(o.value));
    } else if (el instanceof HTMLTextAreaElement) {
      push(now ? el.value : el.defaultValue);
    } else if (el.type === "checkbox" || el.type === "radio") {
      if (now ? el.checked : el.defaultChecked) push(el.value);
    } else if (el.type !== "file" && el.type !== "password") {
      push(now ? el.value : el.defaultValue);
    }
  }
  return out;
}

/** Files chosen in the form's plain file inputs (before the upload widget took over). */
function chosenFiles(form: HTMLFormElement): File[] {
  return Array.from(form.querySelectorAll<HTMLInputElement>('input[type="file"]')).flatMap((input) => Array.from(input.files ?? []));
}
