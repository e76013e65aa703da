import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { users } from "#db/schema";
import { signIn } from "~/models/members/auth.server";
import { loginSchema } from "~/schemas/auth";
import { invalid } from "~/utils/errors";
import { zodFieldErrors } from "~/utils/validation";
import { clientAddress } from "./params.server";

type UserRow = typeof users.$inferSelect;

/**
 * remix-auth v4 keeps no session of its own: `authenticate` returns the member (or throws the
 * error family's error) and session.server.ts stores the id in our cookie.
 */
export const authenticator = new Authenticator<UserRow>();

/**
 * Sign in with the sign-in form the page has already read (capped, `readFormData`): remix-auth's
 * form strategy reads the body itself, so it gets a request rebuilt from that form, never the
 * original stream.
 */
export function authenticateForm(request: Request, form: FormData): Promise<UserRow> {
  const body = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === "string") body.append(name, value);
  const headers = new Headers(request.headers);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  headers.delete("Content-Length");
  return authenticator.authenticate("form", new Request(request.url, { method: "POST", headers, body }));
}

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const parsed = loginSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
    return await signIn(parsed.data, clientAddress(request));
  }),
  "form",
);
