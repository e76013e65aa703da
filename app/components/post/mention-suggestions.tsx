import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { Avatar } from "~/components/ui/avatar";
import {
  insertMention,
  MENTION_SUGGESTIONS,
  mentionAt,
  mentionMatches,
  type Mentionable as MentionSuggestion,
  type TypedMention,
} from "~/utils/mention-typing";

/**
 * Members to mention, offered under a text box as an `@` and the start of a name are typed (ux-3
 * U20): "Dani Ortiz @scrapeline", picked with a tap, or the arrow keys and Enter or Tab (Escape
 * closes), puts `@scrapeline ` in place of what was typed. Not in any page's first load: the comment
 * box fetches it when first focused (mention-assist.tsx); the post editor and the Edit Post form,
 * fetched on demand themselves, bring it with them.
 *
 * For a slow link: the people already on the page (`people`: the post's author and commenters) are
 * offered at once; the server (`GET /api/users?mention=`) is asked 250 ms after the typing stops,
 * each answer is kept for the page's life, a question the typing has left behind is cancelled, and
 * a longer text is narrowed from a shorter one's answer when that answer held every match (fewer
 * than six), without asking again.
 *
 * Accessible as ARIA's list autocomplete on a text box: the box gets `aria-autocomplete="list"`,
 * `aria-controls` (the listbox) and `aria-activedescendant` (the option the keys are on); a polite
 * status says how many members are offered. The box is the page's own element (re-created when a
 * draft is restored), so everything here listens on the window by the box's id and sets those
 * attributes on whichever element has it now.
 */

type Props = {
  /** The id of the textarea (or text input). */
  fieldId: string;
  /** People on the page (not the viewer), offered first, in order; repeats are left out here. */
  people?: MentionSuggestion[];
};

/**
 * Answers of the server for this page's life, by lower-case text, for one member (`answersFor`): a
 * tab signed out and in as someone else asks again, since blocks make each member's answers differ.
 */
const answers = new Map<string, MentionSuggestion[]>();
let answersFor: number | null = null;

/** What the server is known to answer for `query` without asking it: its answer, or a shorter text's complete one narrowed. */
function known(query: string): MentionSuggestion[] | undefined {
  const key = query.toLowerCase();
  const exact = answers.get(key);
  if (exact) return exact;
  for (let n = key.length - 1; n >= 1; n--) {
    const shorter = answers.get(key.slice(0, n));
    if (shorter && shorter.length < MENTION_SUGGESTIONS) return shorter.filter((m) => mentionMatches(m, key));
  }
  return undefined;
}

const DEBOUNCE_MS = 250;

export function MentionSuggestions({ fieldId, people = [] }: Props) {
  const listId = `${useId()}-mentions`;
  const viewer = useRouteLoaderData<{ user?: { id: number } | null }>("root")?.user?.id ?? null;
  const [typed, setTyped] = useState<TypedMention | null>(null);
  const [fromServer, setFromServer] = useState<MentionSuggestion[]>([]);
  const [active, setActive] = useState(0);
  /** The `@` the member closed the list at with Escape: it stays closed until the text changes. */
  const dismissed = useRef<number | null>(null);

  const field = useCallback(() => {
    const el = document.getElementById(fieldId);
    return el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement ? el : null;
  }, [fieldId]);

  const query = typed?.query ?? null;
  const seen = new Set<string>();
  const items: MentionSuggestion[] = [];
  if (query !== null) {
    for (const member of [...people, ...(query ? fromServer : [])]) {
      const key = member.username.toLowerCase();
      if (items.length >= MENTION_SUGGESTIONS || seen.has(key) || !mentionMatches(member, query)) continue;
      seen.add(key);
      items.push(member);
    }
  }
  const open = items.length > 0;
  const activeIndex = Math.min(active, items.length - 1);
  const optionId = (i: number) => `${listId}-${i}`;

  // Where the member is typing: read from the box on every keystroke, caret move and focus.
  useEffect(() => {
    const read = (event: Event) => {
      const el = field();
      if (!el || event.target !== el) return;
      if (event.type === "focusout") return setTyped(null);
      const now = el.selectionStart === el.selectionEnd ? mentionAt(el.value, el.selectionStart ?? 0) : null;
      // Closed with Escape: open again when the text changes, not when the caret merely moves.
      if (event.type === "input" || now?.start !== dismissed.current) dismissed.current = null;
      if (now && dismissed.current === now.start) return setTyped(null);
      setTyped((was) => (was && now && was.start === now.start && was.end === now.end && was.query === now.query ? was : now));
    };
    const events = ["input", "keyup", "click", "focusin", "focusout"] as const;
    for (const type of events) window.addEventListener(type, read, true);
    const el = field();
    if (el && document.activeElement === el) read({ type: "focusin", target: el } as unknown as Event);
    return () => {
      for (const type of events) window.removeEventListener(type, read, true);
    };
  }, [field]);

  // A new text starts at the first option.
  useEffect(() => setActive(0), [query]);

  // The server's answer for the text, 250 ms after the typing stops; cancelled when superseded.
  useEffect(() => {
    if (!query) return setFromServer([]);
    if (answersFor !== viewer) {
      answers.clear();
      answersFor = viewer;
    }
    const ready = known(query);
    if (ready) return setFromServer(ready);
    const asking = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/users?mention=${encodeURIComponent(query)}`, { signal: asking.signal, headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? (response.json() as Promise<MentionSuggestion[]>) : null))
        .then((found) => {
          if (!found || !Array.isArray(found)) return;
          answers.set(query.toLowerCase(), found);
          setFromServer(found);
        })
        // No signal, signed out, or the typing moved on: the people on the page are what is offered.
        .catch(() => undefined);
    }, DEBOUNCE_MS);
    // Until the answer, what a shorter text found still applies as far as it matches.
    setFromServer((was) => was.filter((m) => mentionMatches(m, query)));
    return () => {
      clearTimeout(timer);
      asking.abort();
    };
  }, [query, viewer]);

  const pick = useCallback(
    (member: MentionSuggestion) => {
      const el = field();
      if (!el || !typed) return;
      const done = insertMention(el.value, typed, member.username);
      const replacement = done.text.slice(typed.start, done.text.length - (el.value.length - typed.end));
      el.focus();
      el.setSelectionRange(typed.start, typed.end);
      // insertText keeps the browser's undo and fires the input event forms and drafts listen to.
      if (!document.execCommand("insertText", false, replacement) || el.value !== done.text) {
        el.value = done.text;
        el.dispatchEvent(new Event("input", { bubbles: true }));
      }
      el.setSelectionRange(done.caret, done.caret);
      setTyped(null);
    },
    [field, typed],
  );

  // The keys, while the list is open: before the page's own (a dialog's Escape) and the box's.
  const now = useRef({ items, activeIndex, pick, typed });
  now.current = { items, activeIndex, pick, typed };
  useEffect(() => {
    if (!open) return;
    const keys = (event: KeyboardEvent) => {
      if (event.target !== field() || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return;
      const { items: list, activeIndex: at } = now.current;
      const { key } = event;
      if (key === "ArrowDown" || key === "ArrowUp") setActive((at + (key === "ArrowDown" ? 1 : list.length - 1)) % list.length);
      else if ((key === "Enter" || key === "Tab") && !event.shiftKey) now.current.pick(list[at]!);
      else if (key === "Escape") {
        dismissed.current = now.current.typed?.start ?? null;
        setTyped(null);
      } else return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener("keydown", keys, true);
    return () => window.removeEventListener("keydown", keys, true);
  }, [open, field]);

  // The box's ARIA: it controls the list; the option the keys are on is its active descendant.
  useEffect(() => {
    const el = field();
    if (!el) return;
    el.setAttribute("aria-autocomplete", "list");
    el.setAttribute("aria-controls", listId);
    if (open) el.setAttribute("aria-activedescendant", optionId(activeIndex));
    else el.removeAttribute("aria-activedescendant");
  });
  useEffect(
    () => () => {
      const el = field();
      for (const name of ["aria-autocomplete", "aria-controls", "aria-activedescendant"]) el?.removeAttribute(name);
    },
    [field],
  );

  // The chosen option stays in view as the keys move.
  useEffect(() => {
    if (open) document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: "nearest" });
  });

  return (
    <div className="relative">
      <ul
        id={listId}
        role="listbox"
        aria-label="Members to mention"
        hidden={!open}
        className="absolute inset-x-0 top-1 z-30 max-h-80 overflow-y-auto rounded-lg bg-white py-1 shadow-lg ring-1 ring-stone-200"
        data-testid="mention-suggestions"
      >
        {items.map((member, i) => (
          // The keys are the box's (aria-activedescendant), as ARIA's list autocomplete has them.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={member.username}
            id={optionId(i)}
            role="option"
            aria-selected={i === activeIndex}
            // The box keeps the focus (and the keyboard stays up on a phone); the click picks.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(member)}
            onMouseMove={() => i !== activeIndex && setActive(i)}
            className={`flex min-h-11 cursor-pointer items-center gap-3 px-3 py-1.5 ${i === activeIndex ? "bg-field-50" : ""}`}
          >
            <Avatar src={member.avatar} name={member.displayName} size={28} />
            <span className="min-w-0 truncate">
              <span className="font-semibold text-bark-900">{member.displayName}</span>{" "}
              <span className="text-stone-600">@{member.username}</span>
            </span>
          </li>
        ))}
      </ul>
      <p role="status" className="sr-only">
        {open ? `${items.length} ${items.length === 1 ? "member" : "members"} to mention: up and down to choose, Enter to insert` : ""}
      </p>
    </div>
  );
}
