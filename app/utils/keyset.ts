/**
 * Keyset cursors over (a time, an id), newest first or oldest first: `<ms>.<id>` of the last row
 * shown, so a page never repeats or skips a row that was added meanwhile. Anything else decodes to
 * null (a caller starts from the top). Used by lists whose cursor is not opaque to the page.
 */
export type KeysetPosition = { at: number; id: number };

export const encodeKeyset = (at: Date, id: number): string => `${at.getTime()}.${id}`;

/**
 * One page of `rows` read with one row more than `size` (so a next page shows without a count): the
 * rows to show, and the cursor after the last of them when more follow.
 */
export function keysetPage<T>(rows: T[], size: number, key: (row: T) => [Date, number]): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > size && last ? encodeKeyset(...key(last)) : null };
}

export function decodeKeyset(cursor: string | null | undefined): KeysetPosition | null {
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(cursor ?? "");
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
}
