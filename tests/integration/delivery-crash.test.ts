import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { notifications } from "#db/schema";
import { addComment } from "~/models/posts/comment.server";
import { deliverPending } from "~/models/notifications/notification-delivery.server";
import { LEASE_MS } from "~/utils/jobs.server";
import { updateNotificationSettings } from "~/models/notifications/notification-settings.server";
import { createPost } from "~/models/posts/post.server";
import { createPushAgent, subscribe } from "~/models/notifications/push.server";
import { db } from "~/utils/db.server";
import { setMailSettings } from "~/utils/mail.server";
import { parseMail } from "#tests/fixtures/mail-parts";
import { startMailSink } from "#tests/fixtures/mail-sink";
import { createMember } from "#tests/fixtures/members";
import { postInput } from "#tests/fixtures/posts";
import { browserKeys, startPushService } from "#tests/fixtures/push-service";

/**
 * CONTRACT.md §11 (issue 38): a server killed with SIGKILL in the middle of a delivery, then
 * another run once its lease is over. Every owed mail and push arrives; the one mail that was in
 * flight may arrive twice (the same Message-ID), nothing else does, and no push repeats.
 */
vi.hoisted(() => {
  process.env.PUSH_ALLOW_PRIVATE = "1";
  // Mailed as soon as a run takes them (the worker inherits it): the crash is the subject here.
  process.env.INSTANT_MAIL_DELAY_SECONDS = "0";
});

const root = path.resolve(__dirname, "../..");
const ORIGIN = "http://localhost:3000";
let service: Awaited<ReturnType<typeof startPushService>>;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(async () => {
  setMailSettings(null);
  await service.close();
});

describe("a delivery killed mid-send (kill -9), then restarted", () => {
  it("delivers every owed mail and push; only the mail in flight may come twice", async () => {
    const actor = await createMember({ displayName: "Crash Tester" });
    const members: Array<{ member: Awaited<ReturnType<typeof createMember>>; post: Awaited<ReturnType<typeof createPost>> }> = [];
    for (let i = 0; i < 3; i++) {
      const member = await createMember();
      await updateNotificationSettings(member, { inApp: {}, email: "instant", push: true, clubPosts: [] });
      await subscribe(member, { endpoint: `https://localhost:${service.port}/push/v1/${member.id}`, keys: browserKeys().keys }, null);
      members.push({ member, post: await createPost(member, postInput({ title: `Stand ${i}` })) });
    }
    // Whatever was owed before (other tests' rows) goes first, so the worker's run is only these.
    setMailSettings(null);
    while ((await deliverPending()) > 0);
    for (const { post } of members) await addComment(actor, post.id, { content: "Owed a mail and a push" });
    const ids = members.map(({ member }) => member.id);
    const rows = () => db.select().from(notifications).where(inArray(notifications.userId, ids));
    expect((await rows()).filter((r) => r.kind === "comment" && r.sentAt === null)).toHaveLength(3);

    // The first server: its first mail is taken by the sink and never answered; then SIGKILL.
    const held = await startMailSink({ hold: true });
    const caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "push-ca-")), "ca.pem");
    fs.writeFileSync(caFile, service.ca);
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.resolve(root, "tests/integration/delivery-crash.worker.ts"), held.url, caFile],
      {
        cwd: root,
        env: { ...process.env, PUSH_ALLOW_PRIVATE: "1" },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("ready\n")) resolve();
      });
      child.on("close", () => reject(new Error(`worker exited early: ${out} ${err}`)));
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    child.stdin.write("go\n");
    const inFlight = await Promise.race([
      held.next(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no mail reached the sink: ${out} ${err}`)), 20_000)),
    ]);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    await held.close();
    const pushedBeforeCrash = service.received.filter((p) => ids.some((id) => p.path === `/push/v1/${id}`)).length;
    expect(pushedBeforeCrash).toBeGreaterThanOrEqual(1);
    // Nothing was marked mailed, and the rows are still owed, leased to the dead process.
    const afterCrash = (await rows()).filter((r) => r.kind === "comment");
    expect(afterCrash.every((r) => r.mailedAt === null && r.sentAt === null)).toBe(true);

    // The next server: before the lease ends it leaves the rows alone; after, it delivers them.
    const sink = await startMailSink();
    setMailSettings({ smtpUrl: sink.url, from: "Pulse <pulse@example.org>", publicUrl: ORIGIN });
    const dispatcher = createPushAgent({ ca: service.ca });
    await deliverPending(200, { dispatcher });
    expect(sink.received).toHaveLength(0);
    const after = () => new Date(Date.now() + LEASE_MS + 1000);
    while ((await deliverPending(200, { dispatcher }, after)) > 0);

    const mails = [inFlight, ...sink.received.splice(0)].filter((m) =>
      m.to.some((to) => members.some(({ member }) => member.email === to)),
    );
    for (const { member } of members) {
      const theirs = mails.filter((m) => m.to.includes(member.email));
      expect(theirs.length, member.email).toBeGreaterThanOrEqual(1);
      expect(theirs.length, member.email).toBeLessThanOrEqual(theirs.some((m) => m === inFlight) ? 2 : 1);
      // A repeat is the same message to the receiving side.
      expect(new Set(theirs.map((m) => parseMail(m.raw).header("message-id"))).size).toBe(1);
    }
    expect(mails.length).toBeLessThanOrEqual(members.length + 1);
    for (const { member } of members) expect(service.received.filter((p) => p.path === `/push/v1/${member.id}`)).toHaveLength(1);
    expect((await rows()).filter((r) => r.kind === "comment").every((r) => r.sentAt !== null && r.mailedAt !== null)).toBe(true);
    await sink.close();
  }, 60_000);
});
