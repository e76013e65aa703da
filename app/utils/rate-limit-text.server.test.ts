import { describe, expect, it } from "vitest";
import { tryAgainIn } from "./rate-limit.server";

describe("tryAgainIn: when a limit lifts, in words", () => {
  it("counts seconds and minutes up, never sooner than the truth", () => {
    expect(tryAgainIn(0.2)).toBe("in 1 second");
    expect(tryAgainIn(40)).toBe("in 40 seconds");
    expect(tryAgainIn(61)).toBe("in 2 minutes");
    expect(tryAgainIn(119 * 60)).toBe("in 119 minutes");
  });

  it("past two hours says the hours and the minutes left, not the next whole hour (ux-3 U15)", () => {
    expect(tryAgainIn(5 * 3600)).toBe("in 5 hours");
    expect(tryAgainIn(23 * 3600 + 10 * 60)).toBe("in 23 hours 10 minutes");
    expect(tryAgainIn(24 * 3600 - 30)).toBe("in 24 hours");
    expect(tryAgainIn(24 * 3600 - 90)).toBe("in 23 hours 59 minutes");
    expect(tryAgainIn(2 * 3600 + 60)).toBe("in 2 hours 1 minute");
  });
});
