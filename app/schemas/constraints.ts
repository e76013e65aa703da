/**
 * The HTML constraints (`required`, `multiple`) Conform puts on each form's fields, written out so
 * the browser renders them without zod: `getZodConstraint(schema)` would pull zod into the page's
 * first load, and the validator now arrives after hydration (docs/decisions/0044). They must equal
 * what `getZodConstraint` reads from the schemas, or the page's HTML would change on hydration:
 * `constraints.test.ts` checks each against its schema.
 */

/** The part of Conform's `Constraint` these forms use. */
type Constraint = { required?: boolean; multiple?: boolean };

/** `true` for a required field, `false` for an optional one. */
const fields = (spec: Record<string, boolean>): Record<string, Constraint> =>
  Object.fromEntries(Object.entries(spec).map(([name, required]) => [name, { required }]));

export const CONSTRAINTS = {
  login: fields({ username: true, password: true }),
  register: fields({ username: true, displayName: true, email: true, password: true, location: false, bio: false, inviteCode: false }),
  forgotPassword: fields({ identifier: true }),
  passwordReset: fields({ newPassword: true, confirmPassword: true }),
  settingsProfile: fields({ displayName: true, bio: false, location: false, email: true, currentPassword: false }),
  passwordChange: fields({ currentPassword: true, newPassword: true, confirmPassword: true }),
  profile: fields({ displayName: true, bio: false, location: false }),
  accountDeletion: fields({ password: true }),
} satisfies Record<string, Record<string, Constraint>>;
