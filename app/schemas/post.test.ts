import { describe, expect, it } from "vitest";
import { POST_TYPES as DB_POST_TYPES } from "#db/schema";
import {
  commentSchema,
  parseFeedQuery,
  POST_TYPES,
  postInputSchema,
  postUpdateSchema,
  SORT_LABELS,
  SORT_OPTIONS,
  topicHashtag,
} from "./post";

const valid = { title: "Rub lines", content: "Rubs in late October tell you a lot." };
const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

describe("postInputSchema (SPEC.md §5 Create post)", () => {
  it("keeps the browser-safe post types in step with the database's", () => {
    expect([...POST_TYPES]).toEqual([...DB_POST_TYPES]);
    expect(SORT_OPTIONS.map((s) => SORT_LABELS[s])).toEqual(["Most Recent", "Most Popular", "Most Discussed", "Oldest First"]);
  });

  it("accepts a minimal post and defaults the type to article", () => {
    const r = postInputSchema.parse(valid);
    expect(r.type).toBe("article");
    expect(r.mediaUrl).toBeUndefined();
  });

  it.each([
    [{ ...valid, title: "" }, "title", "Title is required"],
    [{ ...valid, title: "   " }, "title", "Title is required"],
    [{ content: valid.content }, "title", "Title is required"],
    [{ ...valid, title: "x".repeat(201) }, "title", "Title too long"],
    [{ ...valid, content: "too short" }, "content", "Content must be at least 10 characters"],
    [{ ...valid, content: "x".repeat(10_001) }, "content", "Content too long"],
    [{ ...valid, mediaUrl: "javascript:alert(1)" }, "mediaUrl", "Invalid URL format"],
    [{ ...valid, mediaUrl: "not a url" }, "mediaUrl", "Invalid URL format"],
    [{ ...valid, mediaUrl: "ftp://example.com/x" }, "mediaUrl", "Invalid URL format"],
    [{ ...valid, tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, "tags", "Too many tags"],
    [{ ...valid, tags: "1,2,3,4,5,6,7,8,9,10,11" }, "tags", "Too many tags"],
  ])("refuses %j with its message", (input, field, message) => {
    const result = postInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(errorsOf(result)[field]).toBe(message);
  });

  it("takes exactly 200-character titles and 10,000-character content", () => {
    expect(postInputSchema.safeParse({ ...valid, title: "x".repeat(200), content: "y".repeat(10_000) }).success).toBe(true);
  });

  it("refuses an unknown type", () => {
    expect(postInputSchema.safeParse({ ...valid, type: "poem" }).success).toBe(false);
  });

  it("turns an empty media URL into absent and keeps an http(s) one", () => {
    expect(postInputSchema.parse({ ...valid, mediaUrl: "" }).mediaUrl).toBeUndefined();
    expect(postInputSchema.parse({ ...valid, mediaUrl: " https://youtu.be/x " }).mediaUrl).toBe("https://youtu.be/x");
  });

  it("normalises tags from an array or a comma-separated string: trimmed, lower-cased, deduplicated", () => {
    expect(postInputSchema.parse({ ...valid, tags: [" Bow Hunting ", "bow hunting", "", "RUT"] }).tags).toEqual(["bow hunting", "rut"]);
    expect(postInputSchema.parse({ ...valid, tags: "Whitetail, hunting,, TIPS ,whitetail" }).tags).toEqual([
      "whitetail",
      "hunting",
      "tips",
    ]);
    // Ten distinct tags after deduplication are fine even if eleven were typed.
    expect(postInputSchema.parse({ ...valid, tags: "a,b,c,d,e,f,g,h,i,j,A" }).tags).toHaveLength(10);
  });

  it("coerces clubId from a form string and refuses junk", () => {
    expect(postInputSchema.parse({ ...valid, clubId: "7" }).clubId).toBe(7);
    expect(postInputSchema.parse({ ...valid, clubId: "" }).clubId).toBeUndefined();
    expect(postInputSchema.safeParse({ ...valid, clubId: "abc" }).success).toBe(false);
    expect(postInputSchema.safeParse({ ...valid, clubId: -1 }).success).toBe(false);
  });

  it("accepts uploaded files as URLs or upload answers, and link metadata as an object or JSON text", () => {
    const r = postInputSchema.parse({
      ...valid,
      uploadedFiles: ["/media/a.jpg", { url: "/media/b.mp3", type: "audio", name: "b.mp3" }],
      urlMetadata: JSON.stringify({ title: "T", image: "javascript:alert(1)", domain: "example.com" }),
    });
    expect(r.uploadedFiles).toEqual(["/media/a.jpg", "/media/b.mp3"]);
    expect(r.urlMetadata).toMatchObject({ title: "T", image: null, domain: "example.com" });
  });
});

describe("postUpdateSchema (SPEC.md §5 Edit post)", () => {
  it("sends no tags as null and clears an empty media URL", () => {
    const r = postUpdateSchema.parse({ ...valid, tags: " , ", mediaUrl: "" });
    expect(r.tags).toBeNull();
    expect(r.mediaUrl).toBeNull();
    expect(r.type).toBeUndefined();
    expect(postUpdateSchema.parse({ ...valid, tags: null }).tags).toBeNull();
  });

  it("keeps the create rules", () => {
    expect(errorsOf(postUpdateSchema.safeParse({ ...valid, content: "x".repeat(10_001) })).content).toBe("Content too long");
    expect(errorsOf(postUpdateSchema.safeParse({ ...valid, mediaUrl: "javascript:alert(1)" })).mediaUrl).toBe("Invalid URL format");
    expect(errorsOf(postUpdateSchema.safeParse({ ...valid, tags: "1,2,3,4,5,6,7,8,9,10,11" })).tags).toBe("Too many tags");
  });
});

describe("commentSchema", () => {
  it("refuses blank and over-long comments", () => {
    expect(errorsOf(commentSchema.safeParse({ content: "  \n " })).content).toBe("Comment cannot be empty");
    expect(errorsOf(commentSchema.safeParse({})).content).toBe("Comment cannot be empty");
    expect(errorsOf(commentSchema.safeParse({ content: "x".repeat(2001) })).content).toBe("Comment too long");
    expect(commentSchema.parse({ content: "  nice buck  " }).content).toBe("nice buck");
  });
});

describe("parseFeedQuery", () => {
  it("falls back to the defaults on junk and never throws", () => {
    expect(parseFeedQuery(new URLSearchParams("type=poem&sortBy=random&limit=abc&search=%20%20&cursor="))).toEqual({
      type: "all",
      sortBy: "recent",
      search: undefined,
      limit: 20,
      cursor: undefined,
      following: false,
    });
    expect(parseFeedQuery({ type: ["video", "x"], sortBy: 5, limit: {} })).toMatchObject({ type: "video", sortBy: "recent", limit: 20 });
  });

  it("reads valid filters, clamps the limit to 1..50 and trims the search", () => {
    const q = parseFeedQuery(new URLSearchParams("type=podcast&sortBy=popular&limit=500&search=%20%23BowHunting%20&following=true"));
    expect(q).toMatchObject({ type: "podcast", sortBy: "popular", limit: 50, search: "#BowHunting", following: true });
    expect(parseFeedQuery(new URLSearchParams("limit=0")).limit).toBe(1);
  });

  it("builds the Popular Topics hashtags", () => {
    expect(topicHashtag("Bow Hunting")).toBe("#BowHunting");
  });
});

describe("post schemas speak in sentences", () => {
  it("never answer a wrong shape with the validator's own text", () => {
    const odd = [null, 5, true, {}, [1, {}], "x"];
    for (const schema of [postInputSchema, postUpdateSchema]) {
      for (const field of ["title", "content", "type", "mediaUrl", "tags", "clubId", "uploadedFiles", "urlMetadata"]) {
        for (const value of odd) {
          const result = schema.safeParse({ ...valid, [field]: value });
          for (const message of Object.values(errorsOf(result)))
            expect(message, `${field}: ${JSON.stringify(value)}`).not.toMatch(/^Invalid input|expected/);
        }
      }
    }
  });
});
