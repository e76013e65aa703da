/**
 * One racer for the concurrency tests in app/models/clubs/invite.server.test.ts: a separate process with
 * its own SQLite connection (DATABASE_PATH from the parent). It prints "ready" once loaded, waits
 * for a line on stdin (the parent sends it to every racer at once), tries to join, and prints one
 * JSON line: {"ok":true,...} or {"ok":false,"status":409,"error":"..."}.
 *
 *   node --import tsx tests/integration/club-race.worker.ts join <clubId> <userId>
 *   node --import tsx tests/integration/club-race.worker.ts invite <code> <userId>
 */
import { joinClub } from "~/models/clubs/club-membership.server";
import { acceptInvite } from "~/models/clubs/invite.server";

const [mode, target, userId] = process.argv.slice(2);
const actor = { id: Number(userId) };

async function attempt() {
  try {
    const result = mode === "join" ? await joinClub(actor, Number(target)) : await acceptInvite(actor, target!);
    return { ok: true, result };
  } catch (error) {
    const e = error as { status?: number; message?: string; code?: string };
    return { ok: false, status: e.status ?? null, error: e.message, code: e.code ?? null };
  }
}

// Tell the parent this racer is loaded, then fire the moment it says "go" (sent to all at once).
process.stdout.write("ready\n");
process.stdin.once("data", () => {
  void attempt().then((outcome) => {
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
    process.exit(0);
  });
});
