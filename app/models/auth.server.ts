import type { users } from "#db/schema";
import type { LoginInput, RegisterInput } from "~/schemas/auth";
import { checkLimit, consumeLimit, recordHit } from "~/utils/rate-limit.server";
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
  inTransaction?: (user: UserRow) => void,
): Promise<UserRow> {
  consumeLimit("registrationsPerIp", ip);
  return registerUser(input, inTransaction);
}
