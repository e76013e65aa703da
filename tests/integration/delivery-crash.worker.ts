/**
 * A server process running one delivery, for tests/integration/delivery-crash.test.ts: its own
 * connection to the parent's database (DATABASE_PATH, or DATABASE_URL on PostgreSQL), mail through
 * the parent's SMTP sink, pushes to the parent's push service (trusting its certificate). It prints
 * "ready" once loaded, waits for a line on stdin, then delivers what is owed; the parent kills it
 * with SIGKILL while a mail is in flight, so it normally never prints its last line.
 *
 *   node --import tsx tests/integration/delivery-crash.worker.ts <smtpUrl> <caFile>
 */
import fs from "node:fs";
import { deliverPending } from "~/models/notifications/notification-delivery.server";
import { createPushAgent } from "~/models/notifications/push.server";
import { setMailSettings } from "~/utils/mail.server";

const [smtpUrl, caFile] = process.argv.slice(2);
setMailSettings({ smtpUrl: smtpUrl!, from: "Pulse <pulse@example.org>", publicUrl: "http://localhost:3000" });
const dispatcher = createPushAgent({ ca: fs.readFileSync(caFile!, "utf8") });

process.stdout.write("ready\n");
process.stdin.once("data", () => {
  void deliverPending(200, { dispatcher }).then(
    (taken) => {
      process.stdout.write(`${JSON.stringify({ taken })}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
      process.exit(1);
    },
  );
});
