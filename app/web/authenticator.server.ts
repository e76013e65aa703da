import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { users } from "#db/schema";
import { signIn } from "~/models/auth.server";
import { loginSchema } from "~/schemas/auth";
import { invalid } from "~/utils/errors";
import { clientIp } from "~/utils/rate-limit.server";
import { zodFieldErrors } from "~/utils/validation";

type UserRow = typeof users.$inferSelect;

/**
 * remix-auth v4 keeps no session of its own: `authenticate` returns the member (or throws the
 * error family's error) and session.server.ts stores the id in our cookie.
 */
export const authenticator = new Authenticator<UserRow>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const parsed = loginSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
    return signIn(parsed.data, { ip: clientIp(request) });
  }),
  "form",
);
