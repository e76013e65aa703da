import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { zodFieldErrors } from "~/utils/validation";
import { registerSchema } from "./auth";
import { createClubSchema, editClubSchema, joinSchema } from "./club";
import { commentSchema, postInputSchema, postUpdateSchema } from "./post";
import { profilePatchSchema, profileSchema } from "./profile";
import { isStorableText, label, stripInvisible, text, toStorableText, UNSTORABLE_TEXT } from "./text";

const RLO = "\u202e";
const LONE_HIGH = "\ud83d";
const LONE_LOW = "\ude00";
const INVISIBLES = "\u200b\u200c\u200d\u2060\ufeff\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";

const errorsOf = (result: { success: boolean; error?: unknown }) =>
  result.success ? {} : zodFieldErrors(result.error as Parameters<typeof zodFieldErrors>[0]);

describe("the text rule", () => {
  it("refuses a NUL byte and a lone surrogate, keeps whole emoji", () => {
    expect(isStorableText("Bow season 🦌")).toBe(true);
    expect(isStorableText("👨‍👩‍👧")).toBe(true);
    expect(isStorableText("a\u0000b")).toBe(false);
    expect(isStorableText(`a${LONE_HIGH}`)).toBe(false);
    expect(isStorableText(`${LONE_LOW}a`)).toBe(false);
    expect(isStorableText(`${LONE_LOW}${LONE_HIGH}`)).toBe(false);
  });

  it("text(): one clear message, and nothing else reported for that field", () => {
    const result = text().check(z.trim(), z.minLength(3, "Too short")).safeParse("\u0000");
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([UNSTORABLE_TEXT]);
    expect(text().safeParse("fine\n\ttext").success).toBe(true);
  });

  it("label(): drops bidi controls and zero-width characters before trim and length checks", () => {
    expect(stripInvisible(`a${INVISIBLES}b`)).toBe("ab");
    expect(label().check(z.trim()).parse(`  ${RLO}Admin\u200b `)).toBe("Admin");
    expect(label().check(z.trim(), z.minLength(2, "Too short")).safeParse(INVISIBLES).success).toBe(false);
    expect(label().safeParse(`x${LONE_HIGH}`).success).toBe(false);
  });

  it("toStorableText() drops what cannot be stored (for lenient fields)", () => {
    expect(toStorableText(`a\u0000b${LONE_HIGH}c🦌`)).toBe("abc🦌");
    // Cutting a surrogate pair in half leaves a lone half: link metadata is cut, then cleaned.
    expect(toStorableText("🦌".slice(0, 1))).toBe("");
  });
});

describe("the schemas apply it", () => {
  const post = { title: "A title", content: "Long enough content", type: "article" };

  it("refuses NUL and lone surrogates in every stored text field, on the field", () => {
    expect(errorsOf(postInputSchema.safeParse({ ...post, title: "Bad\u0000title" }))).toEqual({ title: [UNSTORABLE_TEXT] });
    expect(errorsOf(postInputSchema.safeParse({ ...post, content: `Long enough ${LONE_HIGH}` }))).toEqual({ content: [UNSTORABLE_TEXT] });
    expect(errorsOf(postInputSchema.safeParse({ ...post, tags: ["ok", "b\u0000d"] }))).toEqual({ "tags.1": [UNSTORABLE_TEXT] });
    expect(errorsOf(postUpdateSchema.safeParse({ ...post, content: "Long enough\u0000" }))).toEqual({ content: [UNSTORABLE_TEXT] });
    expect(errorsOf(commentSchema.safeParse({ content: "\u0000" }))).toEqual({ content: [UNSTORABLE_TEXT] });
    expect(errorsOf(profileSchema.safeParse({ displayName: "Ann", bio: `x${LONE_LOW}` }))).toEqual({ bio: [UNSTORABLE_TEXT] });
    expect(errorsOf(profilePatchSchema.safeParse({ avatar: "/media/a\u0000.png" }))).toEqual({ avatar: [UNSTORABLE_TEXT] });
    expect(errorsOf(createClubSchema.safeParse({ name: "Club", rules: "No\u0000" }))).toEqual({ rules: [UNSTORABLE_TEXT] });
    expect(errorsOf(editClubSchema.safeParse({ name: "Club", description: "Ten chars long\u0000" }))).toEqual({
      description: [UNSTORABLE_TEXT],
    });
    expect(errorsOf(joinSchema.safeParse({ message: "Let me in\u0000" }))).toEqual({ message: [UNSTORABLE_TEXT] });
  });

  it("strips bidi controls and zero-width characters from names, titles, tags and locations", () => {
    const registered = registerSchema.parse({
      username: "ann",
      displayName: `${RLO}nnA\u200b`,
      email: "ann@example.com",
      password: "secret123",
      location: `Mon${RLO}tana`,
    });
    expect(registered).toMatchObject({ displayName: "nnA", location: "Montana" });
    expect(profileSchema.parse({ displayName: `\u2066Ann\u2069` }).displayName).toBe("Ann");
    const club = createClubSchema.parse({ name: `Elk\u200d Camp${RLO}`, location: "\u2067Idaho", tags: [`\u200bbugle`, "\u200b"] });
    expect(club).toMatchObject({ name: "Elk Camp", location: "Idaho", tags: ["bugle"] });
    expect(editClubSchema.parse({ name: "\ufeffElk Camp", description: "Ten chars long" }).name).toBe("Elk Camp");
    const created = postInputSchema.parse({ ...post, title: `${RLO}Title\u200b`, tags: `elk\u200b, \u200b` });
    expect(created).toMatchObject({ title: "Title", tags: ["elk"] });
    expect(postUpdateSchema.parse({ ...post, tags: ["\u2060"] }).tags).toBeNull();
  });

  it("leaves longer text's formatting characters alone (right-to-left writing, emoji sequences)", () => {
    const content = `Family trip 👨‍👩‍👧 and \u2067שלום\u2069 camp`;
    expect(postInputSchema.parse({ ...post, content }).content).toBe(content);
    expect(commentSchema.parse({ content: "👍🏽‍" }).content).toBe("👍🏽‍");
  });

  it("a name made only of invisible characters is empty, so it is refused", () => {
    expect(errorsOf(profileSchema.safeParse({ displayName: "\u200b\u200b" }))).toEqual({ displayName: ["Display name is required"] });
    expect(errorsOf(postInputSchema.safeParse({ ...post, title: RLO }))).toEqual({ title: ["Title is required"] });
  });
});
