import type { users } from "#db/schema";
import type { LoginInput, RegisterInput } from "~/schemas/auth";
import { isAppError } from "~/utils/errors";
import { checkLimit, consumeLimit, recordHit } from "~/utils/rate-limit.server";
import type { Queryable } from "~/models/access.server";
import { joinNewMemberWithInvite } from "~/models/clubs/invite.server";
import { registerUser, verifyLogin } from "./user.server";

type UserRow = typeof users.$inferSelect;

/**
 * Where a sign-in or registration comes from (web/params.server.ts `clientAddress`). Every real
 * socket address is counted, an undeclared proxy's included (security-2 N5); `trusted: false` is
 * left only for a request with no address at all, which no per-address bucket can stand for
 * (docs/decisions/0019-client-address-and-sign-in-limits.md, amended by
 * 0054-every-peer-counted-and-loopback-behind-a-proxy.md).
 */
export type ClientOrigin = { ip: string; trusted?: boolean };

/**
 * Sign-in with its rate limits (CONTRACT.md §5): 10 failures per 15 minutes per username and per
 * address. Only failures count, so a member who signs in often is never locked out; the per-address
 * limit counts only an address the server can trust. A username over its limit is refused even with
 * the right password, and told when to try again (ADR 0019).
 */
export async function signIn(input: LoginInput, { ip, trusted = true }: ClientOrigin): Promise<UserRow> {
  const nameKey = input.username.toLowerCase();
  await checkLimit("loginFailuresPerUsername", nameKey);
  if (trusted) await checkLimit("loginFailuresPerIp", ip);
  try {
    return await verifyLogin(input);
  } catch (error) {
    // Only a wrong pair counts: a suspended member's right password (403) is not a guess.
    if (isAppError(error) && error.status !== 401) throw error;
    await recordHit("loginFailuresPerUsername", nameKey);
    if (trusted) await recordHit("loginFailuresPerIp", ip);
    throw error;
  }
}

/**
 * Registration with its rate limit: 20 per hour per address. An untrusted address still counts (it
 * is the proxy's, so new sign-ups behind it may wait; members are never locked out by it).
 */
export async function signUp(
  input: RegisterInput,
  { ip }: ClientOrigin,
  inTransaction?: (user: UserRow, tx: Queryable) => Promise<void>,
): Promise<UserRow> {
  await consumeLimit("registrationsPerIp", ip);
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
  from: ClientOrigin,
  code: string | null | undefined,
): Promise<{ user: UserRow; clubId: number | null }> {
  let clubId: number | null = null;
  const user = await signUp(
    input,
    from,
    code
      ? async (row, tx) => {
          clubId = await joinNewMemberWithInvite(tx, code, row.id);
        }
      : undefined,
  );
  return { user, clubId };
}
