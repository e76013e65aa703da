import { describe, expect, it } from "vitest";
import { expiresText } from "./invite-terms";

describe("expiresText (issue 14 #28: one expiry text for an invite everywhere)", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");
  const at = (ms: number) => new Date(now + ms).toISOString();

  it("says the same for a 24-hour invite just made and a minute or two later", () => {
    expect(expiresText(at(24 * 3_600_000), now)).toBe("in 1 day");
    expect(expiresText(at(24 * 3_600_000 - 90_000), now)).toBe("in 1 day");
    expect(expiresText(at(24 * 3_600_000 - 59 * 60_000), now)).toBe("in 1 day");
  });

  it("counts hours, then minutes near the end", () => {
    expect(expiresText(at(5 * 3_600_000 - 1_000), now)).toBe("in about 5 hours");
    expect(expiresText(at(12 * 60_000 - 1_000), now)).toBe("in 12 minutes");
  });
});
