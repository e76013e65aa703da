import * as z from "zod/mini";

/**
 * The one rule for text a member can store (docs/decisions/0015-text-rule.md), applied by the
 * schemas, so the browser, the page actions and /api/* all get it:
 *
 * - every text field refuses a NUL byte or a lone surrogate (half of an emoji): neither can be
 *   stored as valid UTF-8, and both are invisible to the person reading;
 * - a label others see (display and club names, titles, tags, locations) also loses the bidi
 *   controls and zero-width characters that make one name look like another or read backwards.
 *   Longer text (content, comments, bios, descriptions) keeps them: right-to-left writing and
 *   emoji sequences (which join with U+200D) need them there.
 */

export const UNSTORABLE_TEXT = "Remove the hidden character this text contains (a NUL byte or half of an emoji)";

/** In unicode mode a surrogate pair is one code point, so only a lone half matches. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const LONE_SURROGATES = /[\ud800-\udfff]/gu;
/** Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), zero-width space, joiners, word joiner, BOM. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069]/g;

export const isStorableText = (value: string): boolean => !value.includes("\0") && !LONE_SURROGATE.test(value);

/** For text the server takes leniently (link metadata): what cannot be stored is dropped instead. */
export const toStorableText = (value: string): string => value.replaceAll("\0", "").replace(LONE_SURROGATES, "");

export const stripInvisible = (value: string): string => value.replace(INVISIBLE, "");

/** stripInvisible on a string or on each string of a list (tags before they are split); anything else unchanged. */
export const stripInvisibleIn = (value: unknown): unknown =>
  typeof value === "string" ? stripInvisible(value) : Array.isArray(value) ? value.map(stripInvisibleIn) : value;

type StringParams = Parameters<typeof z.string>[0];

/**
 * The schemas are written with zod/mini (docs/decisions/0038-light-browser-validation.md): the same
 * definitions run in the browser (Conform) and on the server, and the browser gets only the parts
 * they use, with no `new Function`. `preprocess` is classic zod's, built from mini's parts.
 */
export const preprocess = <T extends z.ZodMiniType>(fn: (value: unknown) => unknown, schema: T) => z.pipe(z.transform(fn), schema);

/**
 * `z.catch(schema, value)` without mini's `catch`, whose body reaches zod's whole `util` namespace
 * (and with it the `new Function` probe) into the browser bundle.
 */
export const fallback = <T extends z.ZodMiniType>(schema: T, value: z.output<T>) =>
  new z.ZodMiniCatch({ type: "catch", innerType: schema, catchValue: () => value }) as z.ZodMiniCatch<T>;

/** Any text a member stores: refuses what cannot be stored. Add trim/length checks with `.check(...)`. */
export const text = (params?: StringParams) => z.string(params).check(z.refine(isStorableText, { error: UNSTORABLE_TEXT, abort: true }));

/** A label others see: `text`, without bidi controls and zero-width characters (removed before trim and length checks). */
export const label = (params?: StringParams) => text(params).check(z.overwrite(stripInvisible));
