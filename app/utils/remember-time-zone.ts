/**
 * In the browser, on every page: tell the server this device's time zone in a year-long `tz` cookie
 * (time-zone.ts says why; the server ignores a name it does not know). Kept apart from the
 * formatting so the shell carries only these lines.
 */
export function rememberTimeZone(): void {
  const pair = `tz=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`;
  if (!document.cookie.split("; ").includes(pair)) document.cookie = `${pair}; path=/; max-age=31536000; samesite=lax`;
}
