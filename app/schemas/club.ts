import * as z from "zod/mini";
import { label, preprocess, stripInvisibleIn, text } from "./text";
import { parseTags } from "~/utils/tags";
import { isHttpUrl } from "~/utils/urls";
import {
  CLUB_NAME_MAX,
  CLUB_DESCRIPTION_MAX,
  CLUB_RULES_MAX,
  CLUB_TAGS_MAX,
  CLUB_TAG_MAX_LENGTH,
  CREATE_LIMIT_MAX,
  EDIT_LIMIT_MAX,
  INVITE_USES_MAX,
  INVITE_HOURS_MAX,
} from "./club-options";

/**
 * Club and invite inputs (SPEC.md §5). Browser-safe: the same schemas serve Conform in the
 * browser, the page actions and the /api/clubs* routes. Each accepts both a JSON body (booleans,
 * numbers, arrays, null) and a plain HTML form (strings, repeated names), so a no-JavaScript post
 * and a JSON call are validated by exactly the same rules.
 */

export * from "./club-options";

/** The last value of a repeated form field (a hidden default followed by a checkbox). */
const lastOf = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);

const toBoolean = (v: unknown) => {
  const value = lastOf(v);
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const t = value.trim().toLowerCase();
    if (t === "true" || t === "on" || t === "1") return true;
    if (t === "false" || t === "off" || t === "0") return false;
  }
  return value;
};

/**
 * Private Club: a checkbox "on" by default. A form sends `isPrivate=false` in a hidden field
 * before the checkbox (`isPrivate=true`), so a cleared box reads as false and a ticked one as
 * true; a body that says nothing at all gets the default (private).
 */
const isPrivateField = (whenAbsent: boolean | undefined) =>
  preprocess(
    (v) => (v === undefined || v === null || v === "" ? whenAbsent : toBoolean(v)),
    whenAbsent === undefined
      ? z.optional(z.boolean({ error: "Choose public or private" }))
      : z.boolean({ error: "Choose public or private" }),
  );

/** "" and null mean "no value"; undefined means "not sent". */
const blankToNull = (v: unknown) => {
  const value = lastOf(v);
  if (value === null) return null;
  if (typeof value === "string" && value.trim() === "") return null;
  return value;
};

const toNumber = (v: unknown) => {
  const value = blankToNull(v);
  if (typeof value === "string") return Number(value.trim());
  return value;
};

/** Club tags by the one tag rule (utils/tags.ts), lower-cased like post tags; a wrong type is left for the schema to report. */
const splitTags = (v: unknown) => {
  if (v === undefined) return undefined;
  if (v === null) return [];
  const items = Array.isArray(v) ? v : [v];
  return items.every((item) => typeof item === "string") ? parseTags(stripInvisibleIn(items)) : v;
};

const tagList = z
  .array(text().check(z.maxLength(CLUB_TAG_MAX_LENGTH, `Tags can be at most ${CLUB_TAG_MAX_LENGTH} characters`)), {
    error: "Tags must be a list",
  })
  .check(z.maxLength(CLUB_TAGS_MAX, "Too many tags"));

/** Tags: lower-cased, trimmed, unique, non-empty; a list, or one comma-separated string. */
export const clubTagsField = preprocess(splitTags, z.optional(tagList));

const optionalText = (max: number, tooLong: string, base = text) =>
  preprocess(blankToNull, z.optional(z.nullable(base().check(z.trim(), z.maxLength(max, tooLong)))));

/**
 * The site's own demo pictures (public/demo/, used by the demo clubs: issue 14, beyond SPEC #18):
 * accepted beside http(s) URLs so an owner editing a demo club can save it with its picture kept.
 */
const DEMO_IMAGE_PATH = /^\/demo\/[a-z0-9-]+\.webp$/;

const imageUrlField = preprocess(
  blankToNull,
  z.optional(
    z.nullable(
      text({ error: "Must be a valid URL" }).check(
        z.trim(),
        z.maxLength(2000, "Must be a valid URL"),
        z.refine((v) => isHttpUrl(v) || DEMO_IMAGE_PATH.test(v), "Must be a valid URL"),
      ),
    ),
  ),
);

const memberLimitField = (field: string, max: number) =>
  preprocess(
    toNumber,
    z.optional(
      z.nullable(
        z
          .number({ error: `${field} must be a number` })
          .check(
            z.int(`${field} must be a whole number`),
            z.gte(2, `${field} must be at least 2`),
            z.lte(max, `${field} cannot be more than ${max}`),
          ),
      ),
    ),
  );

/** SPEC.md §5 Create club. */
export const createClubSchema = z.object({
  name: label({ error: "Club name must be at least 3 characters" }).check(
    z.trim(),
    z.minLength(3, "Club name must be at least 3 characters"),
    z.maxLength(CLUB_NAME_MAX, "Club name too long"),
  ),
  description: optionalText(CLUB_DESCRIPTION_MAX, "Description too long"),
  imageUrl: imageUrlField,
  location: optionalText(100, "Location too long", label),
  isPrivate: isPrivateField(true),
  memberLimit: memberLimitField("Member limit", CREATE_LIMIT_MAX),
  tags: clubTagsField,
  rules: optionalText(CLUB_RULES_MAX, "Rules too long"),
});
export type CreateClubInput = z.infer<typeof createClubSchema>;

/**
 * SPEC.md §5 Edit club (the edit form calls the limit maxMembers). A field left out of a JSON
 * body keeps its value; an empty or null one clears it. The form always sends every field.
 */
const editClubFields = z.object({
  name: label({ error: "Name must be at least 3 characters" }).check(
    z.trim(),
    z.minLength(3, "Name must be at least 3 characters"),
    z.maxLength(CLUB_NAME_MAX, "Name too long"),
  ),
  description: text({ error: "Description must be at least 10 characters" }).check(
    z.trim(),
    z.minLength(10, "Description must be at least 10 characters"),
    z.maxLength(CLUB_DESCRIPTION_MAX, "Description too long"),
  ),
  imageUrl: imageUrlField,
  location: optionalText(100, "Location too long", label),
  maxMembers: memberLimitField("Max members", EDIT_LIMIT_MAX),
  isPrivate: isPrivateField(undefined),
  tags: clubTagsField,
  rules: optionalText(CLUB_RULES_MAX, "Rules too long"),
});

/**
 * The edit form sends the club's current limit as `keptMaxMembers` when it is above
 * EDIT_LIMIT_MAX (a club created with up to CREATE_LIMIT_MAX): sending it back unchanged keeps it
 * (the field counts as left out), so the form never traps such a club (issue 14). Any other value
 * must be 2–100 (SPEC.md §9). The kept value itself is never written.
 */
export const editClubSchema = preprocess((input) => {
  if (!input || typeof input !== "object") return input;
  const { keptMaxMembers, ...rest } = input as Record<string, unknown>;
  const kept = toNumber(keptMaxMembers);
  if (typeof kept === "number" && kept > EDIT_LIMIT_MAX && toNumber(rest.maxMembers) === kept) delete rest.maxMembers;
  return rest;
}, editClubFields);
export type EditClubInput = z.infer<typeof editClubSchema>;

/** POST /api/clubs/{id}/join and the page's join form. */
export const joinSchema = z.object({
  message: preprocess(
    (v) => (blankToNull(v) === null ? undefined : v),
    z.optional(text().check(z.trim(), z.maxLength(500, "Message too long"))),
  ),
  inviteCode: preprocess(
    (v) => (blankToNull(v) === null ? undefined : v),
    z.optional(z.string().check(z.trim(), z.maxLength(100, "This invite link is invalid or has expired."))),
  ),
});
export type JoinInput = z.infer<typeof joinSchema>;

/** SPEC.md §5 Invite form: both optional whole numbers, at least 1 (empty = unlimited / never). */
export const inviteSchema = z.object({
  usesRemaining: preprocess(
    (v) => toNumber(v) ?? undefined,
    z.optional(
      z
        .number({ error: "Max uses must be a number" })
        .check(
          z.int("Max uses must be a whole number"),
          z.gte(1, "Max uses must be at least 1"),
          z.lte(INVITE_USES_MAX, `Max uses cannot be more than ${INVITE_USES_MAX}`),
        ),
    ),
  ),
  expiresIn: preprocess(
    (v) => toNumber(v) ?? undefined,
    z.optional(
      z
        .number({ error: "Expiry must be a number of hours" })
        .check(
          z.int("Expiry must be a whole number of hours"),
          z.gte(1, "Expiry must be at least 1 hour"),
          z.lte(INVITE_HOURS_MAX, `Expiry cannot be more than ${INVITE_HOURS_MAX} hours`),
        ),
    ),
  ),
});
export type InviteInput = z.infer<typeof inviteSchema>;

/** POST /api/clubs/{id}/requests/{requestId} and the Approve / Reject buttons. */
export const requestDecisionSchema = z.object({
  action: z.enum(["approve", "reject"], { error: "Action must be approve or reject" }),
});
export type RequestDecision = z.infer<typeof requestDecisionSchema>["action"];

export const CLUB_LIST_LIMIT_DEFAULT = 24;
export const CLUB_LIST_LIMIT_MAX = 50;

const flag = (v: unknown) => {
  const value = lastOf(v);
  return value === true || value === "true" || value === "1" || value === "on";
};

/**
 * GET /api/clubs and /clubs: never throws on junk, falls back to defaults. The page's tabs map to
 * onlyPublic / onlyMine (`?tab=public|mine`).
 */
export const clubListQuerySchema = z.object({
  search: preprocess((v) => {
    const value = lastOf(v);
    if (typeof value !== "string") return undefined;
    const t = value.trim().slice(0, 200);
    return t === "" ? undefined : t;
  }, z.optional(z.string())),
  onlyPublic: preprocess(flag, z.boolean()),
  onlyMine: preprocess(flag, z.boolean()),
  limit: preprocess((v) => {
    const n = Number(lastOf(v));
    return Number.isInteger(n) && n >= 1 ? Math.min(n, CLUB_LIST_LIMIT_MAX) : CLUB_LIST_LIMIT_DEFAULT;
  }, z.number()),
  cursor: preprocess((v) => {
    const value = lastOf(v);
    return typeof value === "string" && value.length <= 100 ? value : undefined;
  }, z.optional(z.string())),
});
export type ClubListQuery = z.infer<typeof clubListQuerySchema>;

export function parseClubListQuery(params: URLSearchParams): ClubListQuery {
  const raw: Record<string, string> = {};
  for (const key of ["search", "onlyPublic", "onlyMine", "limit", "cursor"]) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  return clubListQuerySchema.parse(raw);
}
