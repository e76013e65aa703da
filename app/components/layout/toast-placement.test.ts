import { describe, expect, it } from "vitest";
import { clearTop } from "./toast-placement";

const span = { left: 16, right: 374 };
const box = (top: number, bottom: number, left = 16, right = 374) => ({ top, bottom, left, right });

describe("clearTop", () => {
  it("keeps the lowest place when nothing is there", () => {
    expect(clearTop(80, span, [box(100, 140)], 64, 748)).toBe(748);
  });
  it("moves above a control at the bottom of the window (Post Comment)", () => {
    expect(clearTop(80, span, [box(770, 814)], 64, 748)).toBe(770 - 8 - 80);
  });
  it("finds a gap between controls, or below one", () => {
    const controls = [box(300, 760), box(100, 200)];
    expect(clearTop(80, span, controls, 64, 748)).toBe(300 - 8 - 80);
  });
  it("ignores controls beside the toast's column", () => {
    expect(clearTop(80, { left: 900, right: 1260 }, [box(700, 840, 0, 400)], 64, 748)).toBe(748);
  });
  it("says so when every place is taken", () => {
    expect(clearTop(80, span, [box(60, 300), box(290, 840)], 64, 748)).toBeNull();
  });
});
