import { describe, expect, it } from "vitest";
import { createClubSchema, editClubSchema } from "./club";
import { tagsField } from "./post";

/** Issue 14 #31: club tags follow the post tags' rule, so the two lists on one site look alike. */
describe("club tags", () => {
  it("are lower-cased, trimmed and de-duplicated like post tags", () => {
    const club = createClubSchema.parse({ name: "Ridge Runners", tags: ["Bow", "bow ", "  Public   Land ", "RUT, Scouting"] });
    expect(club.tags).toEqual(["bow", "public land", "rut", "scouting"]);
  });

  it("come out of the no-JavaScript comma field the same way", () => {
    expect(createClubSchema.parse({ name: "Ridge Runners", tags: "Bow, bow , Public Land" }).tags).toEqual(["bow", "public land"]);
  });

  it("are normalised again on an edit (a club stored with capitals loses them when next saved)", () => {
    const edit = editClubSchema.parse({
      name: "Ridge Runners",
      description: "Public land crew of the ridge",
      tags: ["Public Land", "Bow"],
    });
    expect(edit.tags).toEqual(["public land", "bow"]);
  });

  it("match what a post makes of the same tags", () => {
    const tags = ["Bow", "bow ", "Public Land"];
    expect(createClubSchema.parse({ name: "Ridge Runners", tags }).tags).toEqual(tagsField.parse(tags));
  });
});

/** Issue 14, beyond SPEC #18: the demo clubs' pictures are the site's own files (public/demo/). */
describe("club imageUrl", () => {
  const edit = (imageUrl: string) =>
    editClubSchema.safeParse({ name: "Big Woods Whitetail Club", description: "Hunters of the northern big woods", imageUrl });

  it("keeps a demo club's own picture through an edit", () => {
    const parsed = edit("/demo/big-woods.webp");
    expect(parsed.success && parsed.data.imageUrl).toBe("/demo/big-woods.webp");
  });

  it("refuses any other path", () => {
    for (const bad of ["/api/auth/logout", "/demo/../x.webp", "//evil.example/x.webp", "/demo/x.svg", "demo/x.webp"]) {
      const parsed = edit(bad);
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe("Must be a valid URL");
    }
  });
});
