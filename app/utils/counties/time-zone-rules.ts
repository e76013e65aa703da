/**
 * Counties of split states that keep another zone than their state's (states.ts), by state postal
 * code and county name as us-atlas spells it (scripts/build-counties.ts fails on a name it cannot
 * find, so a typo cannot slip through). docs/decisions/0090-counties-and-hunt-day.md gives the sources:
 * the zone boundaries of 49 CFR Part 71 (the legal line, by county) and the tz database's zones for
 * the counties it follows separately (Indiana, Kentucky, North Dakota, Michigan). A county the line
 * cuts in two is put in the zone of its county seat (Gulf FL, Idaho ID, McKenzie ND, Cherry NE).
 * Official time, not local custom: Phenix City AL, Culberson TX and the Navajo Nation in Arizona
 * keep their state's zone here.
 */
export const ZONE_EXCEPTIONS: Record<string, Record<string, string[]>> = {
  // Florida's panhandle west of the Apalachicola River is Central.
  FL: {
    "America/Chicago": ["Bay", "Calhoun", "Escambia", "Holmes", "Jackson", "Okaloosa", "Santa Rosa", "Walton", "Washington"],
  },
  // Indiana: the tz database's county zones; the northwest (Chicago) and southwest (Evansville) corners are Central.
  IN: {
    "America/Chicago": ["Lake", "Porter", "LaPorte", "Newton", "Jasper", "Gibson", "Posey", "Vanderburgh", "Warrick", "Spencer"],
    "America/Indiana/Knox": ["Starke"],
    "America/Indiana/Tell_City": ["Perry"],
    "America/Indiana/Petersburg": ["Pike"],
    "America/Indiana/Vincennes": ["Daviess", "Dubois", "Knox", "Martin"],
    "America/Indiana/Winamac": ["Pulaski"],
    "America/Indiana/Marengo": ["Crawford"],
    "America/Indiana/Vevay": ["Switzerland"],
  },
  // Kentucky: western Kentucky is Central; Louisville and Wayne County have tz zones of their own.
  KY: {
    "America/Chicago": [
      "Adair",
      "Allen",
      "Ballard",
      "Barren",
      "Breckinridge",
      "Butler",
      "Caldwell",
      "Calloway",
      "Carlisle",
      "Christian",
      "Clinton",
      "Crittenden",
      "Cumberland",
      "Daviess",
      "Edmonson",
      "Fulton",
      "Graves",
      "Grayson",
      "Green",
      "Hancock",
      "Hart",
      "Henderson",
      "Hickman",
      "Hopkins",
      "Livingston",
      "Logan",
      "Lyon",
      "McCracken",
      "McLean",
      "Marshall",
      "Metcalfe",
      "Monroe",
      "Muhlenberg",
      "Ohio",
      "Russell",
      "Simpson",
      "Todd",
      "Trigg",
      "Union",
      "Warren",
      "Webster",
    ],
    "America/Kentucky/Louisville": ["Jefferson"],
    "America/Kentucky/Monticello": ["Wayne"],
  },
  // Tennessee: East Tennessee is Eastern.
  TN: {
    "America/New_York": [
      "Anderson",
      "Blount",
      "Bradley",
      "Campbell",
      "Carter",
      "Claiborne",
      "Cocke",
      "Grainger",
      "Greene",
      "Hamblen",
      "Hamilton",
      "Hancock",
      "Hawkins",
      "Jefferson",
      "Johnson",
      "Knox",
      "Loudon",
      "McMinn",
      "Meigs",
      "Monroe",
      "Morgan",
      "Polk",
      "Rhea",
      "Roane",
      "Scott",
      "Sevier",
      "Sullivan",
      "Unicoi",
      "Union",
      "Washington",
    ],
  },
  // Michigan: the four Upper Peninsula counties on the Wisconsin line are Central.
  MI: { "America/Menominee": ["Gogebic", "Iron", "Dickinson", "Menominee"] },
  // Texas: the far west is Mountain.
  TX: { "America/Denver": ["El Paso", "Hudspeth"] },
  // Kansas: four counties on the Colorado line are Mountain.
  KS: { "America/Denver": ["Sherman", "Wallace", "Greeley", "Hamilton"] },
  // Nebraska: the Panhandle and the Sandhills' west are Mountain (Cherry goes with Valentine, Central).
  NE: {
    "America/Denver": [
      "Arthur",
      "Banner",
      "Box Butte",
      "Chase",
      "Cheyenne",
      "Dawes",
      "Deuel",
      "Dundy",
      "Garden",
      "Grant",
      "Hooker",
      "Keith",
      "Kimball",
      "Morrill",
      "Perkins",
      "Scotts Bluff",
      "Sheridan",
      "Sioux",
    ],
  },
  // South Dakota: west of the Missouri, mostly Mountain.
  SD: {
    "America/Denver": [
      "Bennett",
      "Butte",
      "Corson",
      "Custer",
      "Dewey",
      "Fall River",
      "Haakon",
      "Harding",
      "Jackson",
      "Lawrence",
      "Meade",
      "Oglala Lakota",
      "Pennington",
      "Perkins",
      "Stanley",
      "Ziebach",
    ],
  },
  // North Dakota: the southwest is Mountain (McKenzie goes with Watford City, Central); three counties have tz zones of their own.
  ND: {
    "America/Denver": ["Adams", "Billings", "Bowman", "Dunn", "Golden Valley", "Grant", "Hettinger", "Sioux", "Slope", "Stark"],
    "America/North_Dakota/Center": ["Oliver"],
    "America/North_Dakota/New_Salem": ["Morton"],
    "America/North_Dakota/Beulah": ["Mercer"],
  },
  // Idaho: the northern panhandle is Pacific (Idaho County goes with Grangeville, Pacific).
  ID: {
    "America/Los_Angeles": ["Benewah", "Bonner", "Boundary", "Clearwater", "Idaho", "Kootenai", "Latah", "Lewis", "Nez Perce", "Shoshone"],
  },
  // Oregon: Malheur County is Mountain.
  OR: { "America/Boise": ["Malheur"] },
};
