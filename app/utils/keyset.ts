/**
 * Keyset cursors over (a time, an id), newest first or oldest first: `<ms>.<id>` of the last row
 * shown, so a page never repeats or skips a row that was added meanwhile. Anything else decodes to
 * null (a caller starts from the top). Used by lists whose cursor is not opaque to the page.
 */
export type KeysetPosition = { at: number; id: number };

export const encodeKeyset = (at: Date, id: number): string => `${at.getTime()}.${id}`;

export function decodeKeyset(cursor: string | null | undefined): KeysetPosition | null {
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(cursor ?? "");
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
}
