/**
 * The pulse map's shades (docs/decisions/0094-the-pulse.md): the report counts at which a county's
 * colour steps up, for the map (web/pulse-map.server.ts) and its key on the page. A county on the map
 * has at least 3 reports (the floor is 3 reporters).
 */
export const SHADE_STEPS = [
  { from: 3, fill: "#f6c48b", label: "3–5" },
  { from: 6, fill: "#ee8f3c", label: "6–10" },
  { from: 11, fill: "#c8571b", label: "11–25" },
  { from: 26, fill: "#7f2f0d", label: "26 or more" },
] as const;

export function shadeOf(reports: number): string {
  let fill: string = SHADE_STEPS[0].fill;
  for (const step of SHADE_STEPS) if (reports >= step.from) fill = step.fill;
  return fill;
}
