import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { buildCounties, COUNTIES_FILE, countiesText } from "../../../scripts/build-counties";
import { COUNTY_COUNT, countiesOf, getCounty, getState, searchCounties, STATES } from "./counties.server";

describe("counties.json", () => {
  it("is what scripts/build-counties.ts writes from us-atlas today (run it again after changing a rule)", () => {
    expect(fs.readFileSync(COUNTIES_FILE, "utf8")).toBe(countiesText(buildCounties()));
  });

  it("holds every county of us-atlas 3.0.1 with a 5-digit FIPS code, a state, a centre and a zone", () => {
    expect(COUNTY_COUNT).toBe(3231);
    expect(STATES).toHaveLength(56);
    for (const state of STATES) {
      for (const county of countiesOf(state.postal)) {
        expect(county.fips).toMatch(/^\d{5}$/);
        expect(county.fips.slice(0, 2)).toBe(state.fips);
        expect(Math.abs(county.lat)).toBeLessThanOrEqual(72);
        expect(Math.abs(county.lon)).toBeLessThanOrEqual(180);
        expect(() => new Intl.DateTimeFormat("en-US", { timeZone: county.timeZone })).not.toThrow();
      }
    }
    expect(getCounty("18089")).toEqual({
      fips: "18089",
      name: "Lake",
      state: "IN",
      stateName: "Indiana",
      lat: expect.closeTo(41.42, 1),
      lon: expect.closeTo(-87.38, 1),
      timeZone: "America/Chicago",
    });
    expect(getState("in")?.name).toBe("Indiana");
    expect(getCounty("99999")).toBeUndefined();
  });

  it("tells an independent city from the county of the same name", () => {
    expect(getCounty("51760")?.name).toBe("Richmond city");
    expect(getCounty("51159")?.name).toBe("Richmond");
    expect(getCounty("29510")?.name).toBe("St. Louis city");
    expect(getCounty("24005")?.name).toBe("Baltimore");
  });
});

describe("a county's time zone", () => {
  // [fips, county, the zone its clocks keep]: split states' counties on both sides of the line.
  const cases: [string, string, string][] = [
    ["18089", "Lake IN (Chicago's corner)", "America/Chicago"],
    ["18163", "Vanderburgh IN (Evansville)", "America/Chicago"],
    ["18097", "Marion IN (Indianapolis)", "America/Indiana/Indianapolis"],
    ["18149", "Starke IN", "America/Indiana/Knox"],
    ["18123", "Perry IN", "America/Indiana/Tell_City"],
    ["21111", "Jefferson KY (Louisville)", "America/Kentucky/Louisville"],
    ["21227", "Warren KY (Bowling Green)", "America/Chicago"],
    ["21067", "Fayette KY (Lexington)", "America/New_York"],
    ["21231", "Wayne KY", "America/Kentucky/Monticello"],
    ["47065", "Hamilton TN (Chattanooga)", "America/New_York"],
    ["47093", "Knox TN", "America/New_York"],
    ["47037", "Davidson TN (Nashville)", "America/Chicago"],
    ["47035", "Cumberland TN", "America/Chicago"],
    ["12033", "Escambia FL (Pensacola)", "America/Chicago"],
    ["12005", "Bay FL (Panama City)", "America/Chicago"],
    ["12073", "Leon FL (Tallahassee)", "America/New_York"],
    ["12045", "Gulf FL (seat Port St. Joe)", "America/New_York"],
    ["48141", "El Paso TX", "America/Denver"],
    ["48229", "Hudspeth TX", "America/Denver"],
    ["48453", "Travis TX", "America/Chicago"],
    ["31157", "Scotts Bluff NE", "America/Denver"],
    ["31055", "Douglas NE (Omaha)", "America/Chicago"],
    ["31031", "Cherry NE (seat Valentine)", "America/Chicago"],
    ["46103", "Pennington SD (Rapid City)", "America/Denver"],
    ["46099", "Minnehaha SD (Sioux Falls)", "America/Chicago"],
    ["38089", "Stark ND (Dickinson)", "America/Denver"],
    ["38015", "Burleigh ND (Bismarck)", "America/Chicago"],
    ["38059", "Morton ND", "America/North_Dakota/New_Salem"],
    ["16055", "Kootenai ID (Coeur d'Alene)", "America/Los_Angeles"],
    ["16001", "Ada ID (Boise)", "America/Boise"],
    ["41045", "Malheur OR", "America/Boise"],
    ["41051", "Multnomah OR (Portland)", "America/Los_Angeles"],
    ["20181", "Sherman KS", "America/Denver"],
    ["26053", "Gogebic MI", "America/Menominee"],
    ["26163", "Wayne MI (Detroit)", "America/Detroit"],
    ["04005", "Coconino AZ", "America/Phoenix"],
    ["15003", "Honolulu HI", "Pacific/Honolulu"],
    ["02020", "Anchorage AK", "America/Anchorage"],
    ["72127", "San Juan PR", "America/Puerto_Rico"],
  ];
  it.each(cases)("%s %s keeps %s", (fips, _name, zone) => {
    expect(getCounty(fips)?.timeZone).toBe(zone);
  });

  it("puts a whole state in one zone where the line does not cut it", () => {
    expect(new Set(countiesOf("GA").map((county) => county.timeZone))).toEqual(new Set(["America/New_York"]));
    expect(new Set(countiesOf("IA").map((county) => county.timeZone))).toEqual(new Set(["America/Chicago"]));
    expect(countiesOf("KY").filter((county) => county.timeZone === "America/Chicago")).toHaveLength(41);
    expect(countiesOf("TN").filter((county) => county.timeZone === "America/New_York")).toHaveLength(30);
  });
});

describe("searchCounties", () => {
  it("finds counties by name, starting words first, at most 20", () => {
    const lakes = searchCounties("lake");
    expect(lakes.length).toBeLessThanOrEqual(20);
    expect(lakes[0]).toEqual({ fips: "06033", name: "Lake", state: "CA" });
    expect(lakes.slice(0, 12).every((county) => county.name === "Lake")).toBe(true);
    expect(lakes.map((county) => county.name)).toContain("Salt Lake");
    expect(searchCounties("Lake County")[0].name).toBe("Lake");
  });

  it("narrows by a state written after the county, by code or name", () => {
    expect(searchCounties("lake, in")).toEqual([{ fips: "18089", name: "Lake", state: "IN" }]);
    expect(searchCounties("Lake Indiana")).toEqual([{ fips: "18089", name: "Lake", state: "IN" }]);
    expect(searchCounties("st louis mo").map((county) => county.fips)).toEqual(["29189", "29510"]);
  });

  it("finds a state's counties by its name, and ignores accents and case", () => {
    const indiana = searchCounties("Indiana", 100);
    expect(indiana.length).toBeGreaterThanOrEqual(92);
    expect(searchCounties("dona ana")[0]).toEqual({ fips: "35013", name: "Doña Ana", state: "NM" });
    expect(searchCounties("   ")).toEqual([]);
    expect(searchCounties("zzzz")).toEqual([]);
  });
});
