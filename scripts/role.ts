/**
 * The operator gives a member a site role (CONTRACT.md §8 "Site roles"):
 *
 *   npm run role -- <username> <member|moderator|admin>
 *
 * Moderators and admins act site-wide (reports, removal, suspension); only admins act on moderators
 * and admins. The change is written to the moderation log under "operator". Uses DATABASE_URL
 * (PostgreSQL) or DATABASE_PATH (SQLite) like the server.
 */
import { setSiteRoleAsOperator } from "../app/models/moderation/site-role.server";
import { runOperatorCommand } from "./operator-command";

const USAGE = "Usage: npm run role -- <username> <member|moderator|admin>";

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  if (args.length !== 2) {
    console.error(USAGE);
    return 2;
  }
  const [username, role] = args as [string, string];
  const change = await setSiteRoleAsOperator(username, role);
  console.log(
    change.changed
      ? `${change.username}: ${change.from} → ${change.to} (written to the moderation log)`
      : `${change.username} is already ${change.to}; nothing changed`,
  );
  return 0;
}

await runOperatorCommand(main);
