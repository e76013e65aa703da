import { describe, expect, it } from "vitest";
import { decodeKeyset, keysetPage } from "./keyset";

describe("keysetPage", () => {
  const rows = [3, 2, 1].map((id) => ({ id, at: new Date(1_700_000_000_000 + id) }));
  const key = (row: { id: number; at: Date }): [Date, number] => [row.at, row.id];

  it("shows `size` rows and names the last of them when a row more was read", () => {
    const { page, nextCursor } = keysetPage(rows, 2, key);
    expect(page.map((r) => r.id)).toEqual([3, 2]);
    expect(decodeKeyset(nextCursor)).toEqual({ at: 1_700_000_000_002, id: 2 });
  });

  it("has no next cursor on the last page, full or not, nor for no rows", () => {
    expect(keysetPage(rows, 3, key)).toEqual({ page: rows, nextCursor: null });
    expect(keysetPage(rows.slice(0, 1), 3, key).nextCursor).toBeNull();
    expect(keysetPage([], 3, key)).toEqual({ page: [], nextCursor: null });
  });
});
