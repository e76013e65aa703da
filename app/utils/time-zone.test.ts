import { describe, expect, it } from "vitest";
import { timeZoneOfCookie } from "./reader-time.server";
import { clockOnDay, dayAtClock, knownTimeZone } from "./time-zone";

const at = Date.UTC(2026, 10, 28, 14, 5); // 28 Nov 2026, 14:05 UTC

describe("times told in the reader's zone (ux-3 U7, U15)", () => {
  it("names the moment in the zone, labelled, and UTC by default", () => {
    expect(clockOnDay(at)).toBe("14:05 UTC on 28 Nov");
    expect(clockOnDay(at, "America/Chicago")).toBe("08:05 CST on 28 Nov");
    // Past local midnight the day is the reader's, not UTC's.
    expect(clockOnDay(Date.UTC(2026, 10, 29, 3, 30), "America/Chicago")).toBe("21:30 CST on 28 Nov");
    expect(dayAtClock(at, "America/Chicago")).toBe("28 November 2026 at 08:05 CST");
    // Summer time, and a zone en-US has no letters for.
    expect(dayAtClock(Date.UTC(2026, 6, 4, 12, 0), "America/New_York")).toBe("4 July 2026 at 08:00 EDT");
    expect(clockOnDay(at, "Europe/Berlin")).toBe("15:05 GMT+1 on 28 Nov");
  });

  it("knows only zones the runtime knows", () => {
    expect(knownTimeZone("America/Chicago")).toBe("America/Chicago");
    for (const bad of ["", "Mars/Olympus", "../../etc/passwd", "x".repeat(65), null, undefined]) expect(knownTimeZone(bad)).toBeUndefined();
  });

  it("reads the zone from the tz cookie and ignores anything else", () => {
    expect(timeZoneOfCookie("__session=abc; tz=America%2FChicago; x=1")).toBe("America/Chicago");
    expect(timeZoneOfCookie("tz=Europe/Berlin")).toBe("Europe/Berlin");
    for (const bad of [undefined, "", "xtz=Europe/Berlin", "tz=Nowhere%2FLand", "tz=%E0%A4%A", "tz="])
      expect(timeZoneOfCookie(bad)).toBeUndefined();
  });
});

describe("wall clocks in a zone (club hunts' forms, issue 44)", () => {
  it("reads a wall clock as the instant it names in the zone, either side of a clock change", async () => {
    const { instantOfLocal, localOfInstant } = await import("./time-zone");
    expect(instantOfLocal("2026-12-05T05:30", "America/Chicago")?.toISOString()).toBe("2026-12-05T11:30:00.000Z");
    expect(instantOfLocal("2026-07-05T05:30", "America/Chicago")?.toISOString()).toBe("2026-07-05T10:30:00.000Z");
    expect(instantOfLocal("2026-12-05T05:30", "UTC")?.toISOString()).toBe("2026-12-05T05:30:00.000Z");
    // 02:30 on 8 March 2026 does not exist in Chicago: it reads as the hour after.
    expect(instantOfLocal("2026-03-08T02:30", "America/Chicago")?.toISOString()).toBe("2026-03-08T08:30:00.000Z");
    expect(instantOfLocal("2026-02-30T05:30", "UTC")).toBeUndefined();
    expect(instantOfLocal("tomorrow", "UTC")).toBeUndefined();
    expect(localOfInstant(Date.parse("2026-12-05T11:30:00Z"), "America/Chicago")).toBe("2026-12-05T05:30");
    expect(localOfInstant(Date.parse("2026-07-05T10:30:00Z"), "America/New_York")).toBe("2026-07-05T06:30");
    // 01:30 on 1 November 2026 happens twice in Chicago: the first.
    expect(instantOfLocal("2026-11-01T01:30", "America/Chicago")?.toISOString()).toBe("2026-11-01T06:30:00.000Z");
  });
});
