/**
 * Sends the notification digests that are due, once (CONTRACT.md §7 "Email"):
 *
 *   npm run digest
 *
 * For a timer (cron, a systemd timer) as well as, or instead of, the server's own 15-minute
 * schedule: a member's digest goes at most once a day or a week whoever sends it, and two senders
 * at the same moment never send one twice. Prints the counts; exit code 1 when mail is not
 * configured (SMTP_URL, MAIL_FROM, PUBLIC_URL) or a mail server refused a digest (it is tried
 * again after a backoff, 1, 2, 4 … minutes, and given up after ten tries; `npm run jobs` shows it). Uses DATABASE_URL (PostgreSQL) or DATABASE_PATH (SQLite) like the server.
 */
import { sendDueDigests } from "../app/models/notifications/notification-mail.server";
import { mailSettings } from "../app/utils/mail.server";
import { runOperatorCommand } from "./operator-command";

async function main(): Promise<number> {
  if (!mailSettings()) {
    console.error("Mail is not configured: set SMTP_URL, MAIL_FROM and PUBLIC_URL to send digests.");
    return 1;
  }
  const c = await sendDueDigests();
  console.log(
    `Digests: ${c.sent} sent, ${c.failed} refused (tried again later), ${c.empty} with nothing left to list, ${c.skipped} taken by another sender (${c.due} newly due)`,
  );
  return c.failed > 0 ? 1 : 0;
}

await runOperatorCommand(main);
