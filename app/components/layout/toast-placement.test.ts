import { describe, expect, it } from "vitest";
import { clearTop } from "./toast-placement";

const span = { left: 16, right: 374 };
/** A link or a card's button. */
const box = (top: number, bottom: number, left = 16, right = 374) => ({ top, bottom, left, right });
/** A field, or the button that sends it. */
const field = (top: number, bottom: number) => ({ ...box(top, bottom), typing: true });

describe("clearTop", () => {
  it("keeps the lowest place when nothing is there", () => {
    expect(clearTop(80, span, [box(100, 140)], 64, 748)).toBe(748);
  });
  it("takes the top edge when the bottom one holds a control and the top none", () => {
    expect(clearTop(80, span, [box(770, 814)], 64, 748)).toBe(64);
  });
  it("moves above a field at the bottom of the window (Post Comment) when the top edge holds one too", () => {
    expect(clearTop(80, span, [field(770, 814), field(70, 120)], 64, 748)).toBe(770 - 8 - 80);
  });
  it("sits at an edge over links and cards' buttons rather than mid-screen (ux-2 N12, a member's home)", () => {
    // The banner's "Share Your Story" under the top bar, a card's author link and Report at the bottom.
    expect(clearTop(80, span, [box(90, 134), box(300, 340), box(760, 804)], 64, 748)).toBe(748);
  });
  it("never covers a field at an edge: the other edge, then a gap between controls", () => {
    expect(clearTop(80, span, [field(760, 804), box(70, 110)], 64, 748)).toBe(64);
    const controls = [field(300, 760), field(100, 200)];
    expect(clearTop(80, span, controls, 64, 748)).toBe(300 - 8 - 80);
  });
  it("ignores controls beside the toast's column", () => {
    expect(clearTop(80, { left: 900, right: 1260 }, [{ ...box(700, 840, 0, 400), typing: true }], 64, 748)).toBe(748);
  });
  it("says so when every place is taken", () => {
    expect(clearTop(80, span, [field(60, 300), field(290, 840)], 64, 748)).toBeNull();
  });
});
