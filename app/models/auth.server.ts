import type { users } from "#db/schema";
import type { LoginInput, RegisterInput } from "~/schemas/auth";
import { checkLimit, consumeLimit, recordHit } from "~/utils/rate-limit.server";
import type { Queryable } from "./access.server";
import { joinNewMemberWithInvite } from "./invite.server";
import { registerUser, verifyLogin } from "./user.server";

type UserRow = typeof users.$inferSelect;

/**
 * Sign-in with its rate limits (CONTRACT.md §5): 10 failures per 15 minutes per username and per
 * address. Only failures count, so a member who signs in often is never locked out.
 */
export async function signIn(input: LoginInput, { ip }: { ip: string }): Promise<UserRow> {
  const nameKey = input.username.toLowerCase();
  checkLimit("loginFailuresPerUsername", nameKey);
  checkLimit("loginFailuresPerIp", ip);
  try {
    return await verifyLogin(input);
  } catch (error) {
    recordHit("loginFailuresPerUsername", nameKey);
    recordHit("loginFailuresPerIp", ip);
    throw error;
  }
}

/** Registration with its rate limit: 20 per hour per address. */
export async function signUp(
  input: RegisterInput,
  { ip }: { ip: string },
  inTransaction?: (user: UserRow, tx: Queryable) => void,
): Promise<UserRow> {
  consumeLimit("registrationsPerIp", ip);
  return registerUser(input, inTransaction);
}

/**
 * Registration through an invite (the auth page with an invite code, POST
 * /api/auth/register-with-invite): the account joins the invite's club in the same transaction, so
 * a bad, used-up or expired code (400) or a full club (409) creates no account. Without a code it is
 * a plain sign-up (`clubId` null).
 */
export async function signUpWithInvite(
  input: RegisterInput,
  { ip }: { ip: string },
  code: string | null | undefined,
): Promise<{ user: UserRow; clubId: number | null }> {
  let clubId: number | null = null;
  const user = await signUp(input, { ip }, code ? (row, tx) => void (clubId = joinNewMemberWithInvite(tx, code, row.id)) : undefined);
  return { user, clubId };
}
