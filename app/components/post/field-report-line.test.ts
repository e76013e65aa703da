import { describe, expect, it } from "vitest";
import { FIELD_REPORT_KIND_LABELS, FIELD_REPORT_KINDS, RUT_PHASE_LABELS, RUT_PHASES } from "~/schemas/field-report-options";
import { deerSeen, shortDay, words } from "./field-report-line";

describe("a field report's line", () => {
  it("names kinds and rut phases as the forms do", () => {
    for (const kind of FIELD_REPORT_KINDS) expect(words(kind)).toBe(FIELD_REPORT_KIND_LABELS[kind]);
    for (const phase of RUT_PHASES) expect(words(phase, true)).toBe(RUT_PHASE_LABELS[phase]);
  });
  it("says the day short, with its year only when it is not the post's", () => {
    expect(shortDay("2026-11-12", 2026)).toBe("12 Nov");
    expect(shortDay("2025-12-31", 2026)).toBe("31 Dec 2025");
    expect(shortDay("2026-01-02", 2026)).toBe("2 Jan");
  });
  it("counts the deer seen", () => {
    expect(deerSeen(2, 3)).toBe("2 bucks, 3 does");
    expect(deerSeen(1, null)).toBe("1 buck");
    expect(deerSeen(null, 1)).toBe("1 doe");
    expect(deerSeen(0, null)).toBe("0 bucks");
    expect(deerSeen(null, null)).toBe("");
  });
});
