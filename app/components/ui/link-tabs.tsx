import { Link, useNavigate } from "react-router";
import type { KeyboardEvent, ReactNode } from "react";

export type LinkTab<V extends string> = { value: V; label: string; href: string };

/**
 * Tabs whose triggers are links (`?mode=register`): without JavaScript each tab is a plain link and
 * the page renders the chosen panel; with it they behave as WAI-ARIA tabs (arrow keys, Home and End
 * move between them and show the tab they reach). Written here rather than Radix Tabs, whose
 * 13 KB gz the sign-in page carried in its first load for this (docs/decisions/0044). `data-state`
 * is "active" or "inactive" as with Radix, for styling.
 */
export function LinkTabs<V extends string>({
  id,
  label,
  value,
  tabs,
  listClassName,
  tabClassName,
  children,
}: {
  /** Prefix of the tabs' and panel's element ids. */
  id: string;
  label: string;
  value: V;
  tabs: LinkTab<V>[];
  listClassName?: string;
  tabClassName?: string;
  /** The active tab's panel. */
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const tabId = (v: V) => `${id}-tab-${v}`;
  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.value === value);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    document.getElementById(tabId(tab.value))?.focus();
    if (tab.value !== value) void navigate(tab.href, { replace: true, preventScrollReset: true });
  };
  return (
    <>
      <div role="tablist" aria-label={label} aria-orientation="horizontal" className={listClassName}>
        {tabs.map((tab) => {
          const active = tab.value === value;
          return (
            <Link
              key={tab.value}
              id={tabId(tab.value)}
              to={tab.href}
              replace
              preventScrollReset
              role="tab"
              aria-selected={active}
              aria-controls={`${id}-panel-${value}`}
              tabIndex={active ? 0 : -1}
              data-state={active ? "active" : "inactive"}
              className={tabClassName}
              onKeyDown={onKeyDown}
            >
              {tab.label}
            </Link>
          );
        })}
      </div>
      <div role="tabpanel" id={`${id}-panel-${value}`} aria-labelledby={tabId(value)} tabIndex={0} data-state="active">
        {children}
      </div>
    </>
  );
}
