import { formatDistance } from "date-fns";
import { describe, expect, it } from "vitest";
import { distance, timeAgo } from "./time-ago";

const MINUTE = 60_000;

/** Durations around every threshold date-fns uses, and a spread up to ten years. */
function durations(): number[] {
  const edges = [0, 1, 29, 30, 31, 44, 45, 89, 90, 1439, 1440, 2519, 2520, 43199, 43200, 86399, 86400, 525600, 1051200];
  const out: number[] = [];
  for (const m of edges) for (const d of [-30_000, -1, 0, 1, 29_999, 30_000]) out.push(Math.max(0, m * MINUTE + d));
  let seed = 7;
  for (let i = 0; i < 3000; i++) {
    seed = (seed * 48271) % 2147483647;
    out.push(Math.floor((seed / 2147483647) * 10 * 365 * 24 * 60) * MINUTE + (seed % 60_000));
  }
  return out;
}

describe("timeAgo: date-fns' formatDistance, word for word", () => {
  const bases = [Date.UTC(2026, 10, 23, 11, 0), Date.UTC(2024, 1, 29, 23, 59), Date.UTC(2025, 0, 31, 0, 0), Date.UTC(2026, 2, 8, 9, 30)];
  it("in the past, with the suffix", () => {
    for (const base of bases)
      for (const ms of durations()) {
        const expected = formatDistance(base - ms, base, { addSuffix: true });
        expect(timeAgo(new Date(base - ms), new Date(base)), `${ms} ms before ${new Date(base).toISOString()}`).toBe(expected);
      }
  });

  it("in the future, and without a suffix", () => {
    for (const base of bases)
      for (const ms of durations()) {
        expect(timeAgo(new Date(base + ms), new Date(base))).toBe(formatDistance(base + ms, base, { addSuffix: true }));
        expect(distance(new Date(base - ms), new Date(base))).toBe(formatDistance(base - ms, base));
      }
  });
});
