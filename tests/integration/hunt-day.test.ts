import { describe, expect, it } from "vitest";
import { loader as huntDayLoader } from "~/routes/api.hunt-day";
import { loader as countiesLoader } from "~/routes/api.counties";
import { getCounty } from "~/utils/counties/counties.server";
import { localDate } from "~/utils/hunt-day";
import { call, makeRequest } from "#tests/fixtures/members";

/**
 * Two independent references, written here from NOAA's publications and sharing no code with suncalc:
 *
 * 1. NOAA's solar calculator (https://gml.noaa.gov/grad/solcalc/, "Solar Calculation Details":
 *    https://gml.noaa.gov/grad/solcalc/calcdetails.html and its spreadsheet NOAA_Solar_Calculations_day.xls),
 *    the equations from Meeus, "Astronomical Algorithms", the calculator runs: Julian century, the sun's
 *    geometric mean longitude and anomaly, the earth's orbital eccentricity, the equation of centre,
 *    apparent longitude, corrected obliquity, declination, the equation of time, and the hour angle
 *    of sunrise at the zenith angle 90.833° (refraction and the sun's radius). Held to 2 minutes
 *    (CONTRACT.md §14).
 * 2. NOAA Global Monitoring Laboratory, "General Solar Position Calculations"
 *    (https://gml.noaa.gov/grad/solcalc/solareqns.PDF): the fractional year γ, the equation of time and
 *    the declination as Fourier series in γ, and sunrise/sunset = 720 − 4·(longitude ± ha) − eqtime
 *    minutes after 00:00 UTC. Its series take γ = 0 at 1 January of every year, so near an equinox,
 *    where the declination moves 0.4° a day, they drift with the leap-year cycle: measured against (1)
 *    and suncalc this season, up to 3.7 minutes at Anchorage's 61° N (2½ at 45° N) in March and
 *    September, under 1 minute at the solstices. Held to 4 minutes, and to 2 at the solstices.
 */
type Events = { sunrise: number; sunset: number };
const rad = Math.PI / 180;
const deg = 180 / Math.PI;
const MINUTE = 60_000;
const DAY = 86_400_000;

/** (1) NOAA's calculator: sunrise and sunset on the UTC day `date`, for the sun's position at 00:00 UTC + `minutes`. */
function noaaCalculator(lat: number, lon: number, date: string): Events {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  const event = (sign: 1 | -1) => {
    let minutes = 720 - 4 * lon;
    for (let pass = 0; pass < 3; pass += 1) {
      const julianDay = (midnight + minutes * MINUTE) / DAY + 2440587.5;
      const t = (julianDay - 2451545) / 36525; // Julian century
      const l0 = (((280.46646 + t * (36000.76983 + t * 0.0003032)) % 360) + 360) % 360; // geometric mean longitude
      const m = 357.52911 + t * (35999.05029 - 0.0001537 * t); // geometric mean anomaly
      const e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t); // eccentricity of the earth's orbit
      const c =
        Math.sin(m * rad) * (1.914602 - t * (0.004817 + 0.000014 * t)) +
        Math.sin(2 * m * rad) * (0.019993 - 0.000101 * t) +
        Math.sin(3 * m * rad) * 0.000289; // equation of centre
      const omega = 125.04 - 1934.136 * t;
      const apparentLong = l0 + c - 0.00569 - 0.00478 * Math.sin(omega * rad);
      const meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60;
      const obliquity = meanObliquity + 0.00256 * Math.cos(omega * rad);
      const decl = Math.asin(Math.sin(obliquity * rad) * Math.sin(apparentLong * rad));
      const y = Math.tan((obliquity / 2) * rad) ** 2;
      const eqTime =
        4 *
        deg *
        (y * Math.sin(2 * l0 * rad) -
          2 * e * Math.sin(m * rad) +
          4 * e * y * Math.sin(m * rad) * Math.cos(2 * l0 * rad) -
          0.5 * y * y * Math.sin(4 * l0 * rad) -
          1.25 * e * e * Math.sin(2 * m * rad));
      const ha = deg * Math.acos(Math.cos(90.833 * rad) / (Math.cos(lat * rad) * Math.cos(decl)) - Math.tan(lat * rad) * Math.tan(decl));
      minutes = 720 - 4 * (lon + sign * ha) - eqTime;
    }
    return midnight + minutes * MINUTE;
  };
  return { sunrise: event(1), sunset: event(-1) };
}

/** (2) "General Solar Position Calculations": sunrise and sunset on the UTC day `date`. */
function noaaGeneral(lat: number, lon: number, date: string): Events {
  const [year, month, day] = date.split("-").map(Number);
  const midnight = Date.UTC(year, month - 1, day);
  const dayOfYear = Math.round((midnight - Date.UTC(year, 0, 1)) / DAY) + 1;
  const daysInYear = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 366 : 365;
  const event = (sign: 1 | -1) => {
    let minutes = 720 - 4 * lon; // start from solar noon; γ is then taken at the event's own hour
    for (let pass = 0; pass < 3; pass += 1) {
      const g = ((2 * Math.PI) / daysInYear) * (dayOfYear - 1 + (minutes / 60 - 12) / 24);
      const eqtime =
        229.18 * (0.000075 + 0.001868 * Math.cos(g) - 0.032077 * Math.sin(g) - 0.014615 * Math.cos(2 * g) - 0.040849 * Math.sin(2 * g));
      const decl =
        0.006918 -
        0.399912 * Math.cos(g) +
        0.070257 * Math.sin(g) -
        0.006758 * Math.cos(2 * g) +
        0.000907 * Math.sin(2 * g) -
        0.002697 * Math.cos(3 * g) +
        0.00148 * Math.sin(3 * g);
      const ha = deg * Math.acos(Math.cos(90.833 * rad) / (Math.cos(lat * rad) * Math.cos(decl)) - Math.tan(lat * rad) * Math.tan(decl));
      minutes = 720 - 4 * (lon + sign * ha) - eqtime;
    }
    return midnight + minutes * MINUTE;
  };
  return { sunrise: event(1), sunset: event(-1) };
}

/**
 * The references count from 00:00 UTC of the date; the card's day is the county's own (on Guam the
 * 21st begins on the 20th in UTC), so take the reference's event on the UTC day nearest the card's.
 */
function nearest(
  reference: (lat: number, lon: number, date: string) => Events,
  lat: number,
  lon: number,
  date: string,
  card: Events,
): Events {
  const [before, same, after] = [-1, 0, 1].map((shift) =>
    reference(lat, lon, new Date(Date.parse(`${date}T00:00:00Z`) + shift * DAY).toISOString().slice(0, 10)),
  );
  const pick = (key: keyof Events) =>
    [before[key], same[key], after[key]].reduce((best, value) => (Math.abs(value - card[key]) < Math.abs(best - card[key]) ? value : best));
  return { sunrise: pick("sunrise"), sunset: pick("sunset") };
}

async function card(query: string) {
  const res = await call(huntDayLoader, makeRequest(`/api/hunt-day?${query}`));
  return { status: res.status, body: await res.json() };
}

describe("GET /api/hunt-day agrees with NOAA's solar calculation (within 2 minutes)", () => {
  const counties = [
    ["18089", "Lake IN"],
    ["48141", "El Paso TX"],
    ["41045", "Malheur OR"],
    ["23019", "Penobscot ME"],
    ["12033", "Escambia FL"],
    ["15003", "Honolulu HI"],
    ["02020", "Anchorage AK"],
    ["72127", "San Juan PR"],
    ["66010", "Guam"],
  ];
  const dates = ["2026-03-20", "2026-06-21", "2026-09-22", "2026-11-30", "2026-12-21", "2027-01-15"];

  for (const [fips, label] of counties) {
    it(`${label}: ${dates.join(", ")}`, async () => {
      const county = getCounty(fips)!;
      for (const date of dates) {
        const { status, body } = await card(`county=${fips}&date=${date}`);
        expect(status).toBe(200);
        const sunrise = Date.parse(body.sunrise);
        const sunset = Date.parse(body.sunset);
        const calculator = nearest(noaaCalculator, county.lat, county.lon, date, { sunrise, sunset });
        expect(Math.abs(sunrise - calculator.sunrise), `${label} ${date} sunrise`).toBeLessThanOrEqual(2 * MINUTE);
        expect(Math.abs(sunset - calculator.sunset), `${label} ${date} sunset`).toBeLessThanOrEqual(2 * MINUTE);
        const general = nearest(noaaGeneral, county.lat, county.lon, date, { sunrise, sunset });
        const bound = /-(06|12)-2\d$/.test(date) ? 2 * MINUTE : 4 * MINUTE;
        expect(Math.abs(sunrise - general.sunrise), `${label} ${date} sunrise (general)`).toBeLessThanOrEqual(bound);
        expect(Math.abs(sunset - general.sunset), `${label} ${date} sunset (general)`).toBeLessThanOrEqual(bound);
        // …and both happen on that day in the county's own time.
        expect(localDate(sunrise, county.timeZone)).toBe(date);
        expect(localDate(sunset, county.timeZone)).toBe(date);
        expect(Date.parse(body.legalStart)).toBe(sunrise - 30 * MINUTE);
        expect(Date.parse(body.legalEnd)).toBe(sunset + 30 * MINUTE);
      }
    });
  }
});

describe("GET /api/hunt-day", () => {
  it("answers CONTRACT §14's shape, instants in UTC", async () => {
    const { status, body } = await card("county=18089&date=2026-11-30");
    expect(status).toBe(200);
    expect(body).toEqual({
      county: { fips: "18089", name: "Lake", state: "IN" },
      date: "2026-11-30",
      sunrise: expect.stringMatching(/^2026-11-30T12:5\d:\d\d\.000Z$/),
      sunset: expect.stringMatching(/^2026-11-30T22:2\d:\d\d\.000Z$/),
      legalStart: expect.stringMatching(/Z$/),
      legalEnd: expect.stringMatching(/Z$/),
      moon: { phase: expect.any(Number), illumination: expect.any(Number), name: expect.any(String) },
    });
    expect(body.moon.phase).toBeGreaterThanOrEqual(0);
    expect(body.moon.phase).toBeLessThan(1);
  });

  it("names the moon's phases on the days of NOAA's (USNO's) published 2026 phases", async () => {
    // Full Moon 2026-11-24 14:53 UTC, Last Quarter 2026-12-01 06:08 UTC, New Moon 2026-12-09 00:51 UTC (US Naval Observatory).
    expect((await card("county=51059&date=2026-11-24")).body.moon).toMatchObject({ name: "Full Moon", illumination: expect.closeTo(1, 1) });
    expect((await card("county=51059&date=2026-12-01")).body.moon.name).toBe("Last Quarter");
    expect((await card("county=51059&date=2026-12-08")).body.moon).toMatchObject({ name: "New Moon", illumination: expect.closeTo(0, 1) });
    expect((await card("county=51059&date=2026-12-04")).body.moon.name).toBe("Waning Crescent");
  });

  it("defaults to the county's today", async () => {
    const { status, body } = await card("county=15003");
    expect(status).toBe(200);
    expect(body.date).toBe(localDate(Date.now(), "Pacific/Honolulu"));
  });

  it("says the sun does not rise in a polar night, with nulls", async () => {
    const { status, body } = await card("county=02185&date=2026-12-21");
    expect(status).toBe(200);
    expect(body).toMatchObject({ sunrise: null, sunset: null, legalStart: null, legalEnd: null, polar: "night" });
  });

  it.each([
    ["", "county", "Choose a county"],
    ["county=abc", "county", "County must be a 5-digit FIPS code"],
    ["county=1808", "county", "County must be a 5-digit FIPS code"],
    ["county=99999", "county", "No US county has that FIPS code"],
    ["county=18089&date=2026-02-30", "date", "Date must be a day written YYYY-MM-DD (1900 to 2100)"],
    ["county=18089&date=30/11/2026", "date", "Date must be a day written YYYY-MM-DD (1900 to 2100)"],
    ["county=18089&date=3026-01-01", "date", "Date must be a day written YYYY-MM-DD (1900 to 2100)"],
  ])("?%s → 400 with fieldErrors.%s", async (query, field, message) => {
    const { status, body } = await card(query);
    expect(status).toBe(400);
    expect(body).toEqual({ error: "Please check the highlighted fields", fieldErrors: { [field]: [message] } });
  });
});

describe("GET /api/counties?q=", () => {
  const search = async (q: string) => {
    const res = await call(countiesLoader, makeRequest(`/api/counties?q=${encodeURIComponent(q)}`));
    return { status: res.status, body: await res.json() };
  };

  it("answers up to 20 { fips, name, state } matching a county or a state name", async () => {
    const lake = await search("lake");
    expect(lake.status).toBe(200);
    expect(lake.body.length).toBeGreaterThan(12);
    expect(lake.body[0]).toEqual({ fips: "06033", name: "Lake", state: "CA" });
    const texas = await search("Texas");
    expect(texas.body).toHaveLength(20);
    // Texas County, Missouri and Oklahoma first (a county's name), then the state's counties.
    expect(texas.body.slice(0, 2).map((county: { state: string }) => county.state)).toEqual(["MO", "OK"]);
    expect(texas.body.slice(2).every((county: { state: string }) => county.state === "TX")).toBe(true);
    expect((await search("malheur")).body).toEqual([{ fips: "41045", name: "Malheur", state: "OR" }]);
    expect((await search("")).body).toEqual([]);
  });

  it("refuses a search longer than 60 characters with 400", async () => {
    const { status, body } = await search("x".repeat(61));
    expect(status).toBe(400);
    expect(body.fieldErrors.q).toEqual(["Search must be at most 60 characters"]);
  });
});
