/**
 * The inline script of a page sent without the app's code (docs/decisions/0047), as root.tsx draws
 * it. Only the server draws such a page, so the script is server code (web/plain-page-script.server.ts):
 * entry.server.tsx sets it here once, the way it sets the render cache's store, and the browser's
 * build never carries it.
 */
let draw: ((buildVersion: string) => string) | null = null;

export function setPlainPageScript(script: (buildVersion: string) => string) {
  draw = script;
}

/** The script for `buildVersion`, or "" where none was set (never, on the server). */
export function plainPageScript(buildVersion: string): string {
  return draw?.(buildVersion) ?? "";
}
