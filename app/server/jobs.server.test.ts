import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobRuns } from "#db/schema";
import { notify } from "~/models/notifications/notification.server";
import { db } from "~/utils/db.server";
import { runEvery } from "~/utils/jobs.server";
import { createMember } from "#tests/fixtures/members";
import { makeClub } from "#tests/fixtures/posts";
import { JOBS, jobsReport } from "./jobs.server";

/** CONTRACT.md §11, ADR 0070: one registry of the server's jobs, each run counted where operators can see it. */

const appDir = path.resolve(__dirname, "..");
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe("the job registry", () => {
  it("lists every job the app's code schedules, once, by the name it is counted under", () => {
    const scheduled = sources(appDir).flatMap((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(/\brun(?:Every|Once)\(\s*"([^"]+)"/g)].map((m) => m[1]!),
    );
    expect(scheduled.length).toBeGreaterThanOrEqual(8);
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...new Set(scheduled)].sort()).toEqual([...names].sort());
  });

  it("counts runs and failures in job_runs, with the last error, across runs", async () => {
    const name = `test-job-${Date.now()}`;
    let calls = 0;
    const stop = runEvery(name, 60_000, async () => {
      calls += 1;
      throw new Error("the mail server said no");
    });
    const row = async () => (await db.select().from(jobRuns).where(eq(jobRuns.name, name)))[0];
    await until(async () => (await row()) !== undefined);
    stop();
    expect(calls).toBe(1);
    expect(await row()).toMatchObject({ runs: 1, failures: 1, lastError: "the mail server said no" });
    const again = runEvery(name, 60_000, async () => {});
    await until(async () => (await row())?.runs === 2);
    again();
    const after = (await row())!;
    expect(after).toMatchObject({ runs: 2, failures: 1, lastError: "the mail server said no" });
    expect(after.lastFinishedAt!.getTime()).toBeGreaterThanOrEqual(after.lastFailedAt!.getTime());
  });

  it("reports each job with its queue: a notification owed shows in the delivery's", async () => {
    const before = (await jobsReport()).find((job) => job.name === "notification-delivery")!.queue!.owed!;
    const [staff, asker] = [await createMember(), await createMember()];
    await notify([staff.id], { kind: "join_request", actorId: asker.id, clubId: await makeClub(staff.id) });
    const report = await jobsReport();
    expect(report.map((job) => job.name)).toEqual(JOBS.map((job) => job.name));
    expect(report.find((job) => job.name === "notification-delivery")!.queue!.owed).toBe(before + 1);
    expect(report.find((job) => job.name === "notification-fanout")!.queue).toHaveProperty("unfinished");
  });
});
