import { eq } from "drizzle-orm";
import { SITE_ROLES, users, type SiteRole } from "#db/schema";
import { first, writeTransaction } from "~/utils/db.server";
import { equalsIgnoringCase } from "~/utils/db/sql-dialect.server";
import { badRequest, notFound } from "~/utils/errors";
import { logDecision } from "./moderation-log.server";

/**
 * Site roles (CONTRACT.md §8 "Site roles"): the operator makes a member a moderator or an admin,
 * or a member again, with `npm run role` (scripts/role.ts). The change and its log entry are one
 * transaction; the entry names the operator, who is no member.
 */

/** Who the log names for a role the operator set from the command line. */
export const OPERATOR = "operator";

export const isSiteRole = (value: string): value is SiteRole => (SITE_ROLES as readonly string[]).includes(value);

export type RoleChange = { username: string; from: SiteRole; to: SiteRole; changed: boolean };

/** Set a member's site role (usernames match regardless of case). 400 for an unknown role, 404 for no such member. */
export async function setSiteRoleAsOperator(username: string, role: string): Promise<RoleChange> {
  if (!isSiteRole(role)) throw badRequest(`Unknown role "${role}": use one of ${SITE_ROLES.join(", ")}`);
  return writeTransaction(async (tx) => {
    const row = first(
      await tx
        .select({ id: users.id, username: users.username, role: users.role })
        .from(users)
        .where(equalsIgnoringCase(users.username, username)),
    );
    if (!row) throw notFound(`No member has the username "${username}"`);
    if (row.role === role) return { username: row.username, from: row.role, to: role, changed: false };
    await tx.update(users).set({ role }).where(eq(users.id, row.id));
    await logDecision(tx, {
      actor: null,
      actorName: OPERATOR,
      action: "set_role",
      targetType: "user",
      targetId: row.id,
      targetLabel: row.username,
      reason: `${row.role} → ${role}`,
    });
    return { username: row.username, from: row.role, to: role, changed: true };
  });
}
