import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notificationSettings } from "#db/schema";
import { call, createMember, makeRequest } from "#tests/fixtures/members";
import { RESUBSCRIBE_CHOICE_MISSING, unsubscribeToken } from "~/models/notifications/notification-mail.server";
import { setEmailMode } from "~/models/notifications/notification-settings.server";
import * as unsubscribePage from "~/routes/unsubscribe.$token/route";
import { db, first } from "~/utils/db.server";

/**
 * The unsubscribe page's undo (ux-3 U25): after "Notification emails are off" the same signed link
 * turns them back on, as often as the member chooses, preselected as they were; signed out, no
 * sign-in. A missing or unknown choice is refused and changes nothing; a forged link is a 404.
 */

const emailOf = async (userId: number) =>
  first(await db.select({ email: notificationSettings.email }).from(notificationSettings).where(eq(notificationSettings.userId, userId)))
    ?.email;
const load = (token: string, query = "") => call(unsubscribePage.loader, makeRequest(`/unsubscribe/${token}${query}`), { token });
const post = (token: string, form: Record<string, string>) =>
  call(unsubscribePage.action, makeRequest(`/unsubscribe/${token}`, { form }), { token });
type Page = { emailOn: boolean; backOn: { value: string; checked: boolean }[] };
const checked = async (res: Response) => ((await res.json()) as Page).backOn.find((c) => c.checked)?.value;

describe("turning notification emails back on from the unsubscribe link", () => {
  it("offers them back as they were (weekly), and turns them on as chosen, signed out", async () => {
    const member = await createMember();
    await setEmailMode(member.id, "weekly");
    const token = unsubscribeToken(member.id);

    const off = await post(token, {});
    expect(off.status).toBe(302);
    expect(off.headers.get("Location")).toBe(`/unsubscribe/${token}?was=weekly`);
    expect(await emailOf(member.id)).toBe("off");

    const page = await load(token, "?was=weekly");
    const body = (await page.clone().json()) as Page;
    expect(body.emailOn).toBe(false);
    expect(body.backOn.map((c) => c.value)).toEqual(["instant", "daily", "weekly"]);
    expect(await checked(page)).toBe("weekly");
    // Without (or with a made-up) `was`, the daily digest, the site's default, is preselected.
    expect(await checked(await load(token))).toBe("daily");
    expect(await checked(await load(token, "?was=off"))).toBe("daily");

    const on = await post(token, { intent: "resubscribe", email: "weekly" });
    expect(on.status).toBe(302);
    expect(on.headers.get("Location")).toBe(`/unsubscribe/${token}`);
    expect(on.headers.get("Set-Cookie")).toMatch(/__toast=/);
    expect(await emailOf(member.id)).toBe("weekly");
    expect(((await (await load(token)).json()) as Page).emailOn).toBe(true);

    // Stopping again from there remembers the new choice; instant comes back as instant.
    await post(token, { intent: "resubscribe", email: "instant" });
    expect((await post(token, {})).headers.get("Location")).toBe(`/unsubscribe/${token}?was=instant`);
  });

  it("refuses a missing or unknown choice with the form's message and changes nothing", async () => {
    const member = await createMember();
    const token = unsubscribeToken(member.id);
    await post(token, {});
    for (const form of [
      { intent: "resubscribe" } as Record<string, string>,
      { intent: "resubscribe", email: "off" },
      { intent: "resubscribe", email: "hourly" },
    ]) {
      const res = await post(token, form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
      expect(await res.json()).toEqual({ refusal: RESUBSCRIBE_CHOICE_MISSING });
      expect(await emailOf(member.id)).toBe("off");
    }
  });

  it("a forged or another member's cut-short link turns nothing on (404)", async () => {
    const member = await createMember();
    const token = unsubscribeToken(member.id);
    await post(token, {});
    const forged = `${member.id}-${"A".repeat(32)}`;
    expect((await post(forged, { intent: "resubscribe", email: "daily" })).status).toBe(404);
    expect((await post(token.slice(0, -1), { intent: "resubscribe", email: "daily" })).status).toBe(404);
    expect(await emailOf(member.id)).toBe("off");
  });
});
