/**
 * The operator's "Forgot password?" (docs/decisions/0028-password-reset.md): prints a one-time link
 * that lets the member choose a new password. For sites without SMTP, or a member whose mail does
 * not arrive.
 *
 *   npm run reset-password -- <username or email> [--origin https://pulse.example.org]
 *
 * The link's origin is --origin, else PUBLIC_URL. It works for one hour, once; a newer link (from
 * here or from the site's form) replaces it. Uses DATABASE_PATH like the server.
 */
import { parseArgs } from "node:util";
import { operatorResetLink } from "../app/models/members/password-reset.server";
import { env } from "../app/utils/env.server";
import { runOperatorCommand } from "./operator-command";

const USAGE = "Usage: npm run reset-password -- <username or email> [--origin https://your-site.example]";

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { origin: { type: "string" } } });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [identifier, ...extra] = parsed.positionals;
  if (!identifier || extra.length) {
    console.error(USAGE);
    return 2;
  }
  const origin = parsed.values.origin ?? env.PUBLIC_URL;
  if (!origin || !/^https?:\/\/[^/]/.test(origin)) {
    console.error(`The link needs the site's address: set PUBLIC_URL or pass --origin https://your-site.example\n${USAGE}`);
    return 2;
  }
  const { username, link, expiresAt } = await operatorResetLink(identifier, origin);
  console.log(`One-time password reset link for ${username} (works once, until ${expiresAt.toISOString()}):`);
  console.log(link);
  return 0;
}

await runOperatorCommand(main);
