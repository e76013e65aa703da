import { createHmac } from "node:crypto";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/**
 * The unsubscribe link at the foot of notification mails (CONTRACT.md §7 "Email"), signed out, with
 * JavaScript off and on: GET asks and changes nothing, the button turns the mail off and the page
 * says so and turns it back on from the same link (ux-3 U25) or Settings › Notifications; a mail client's one-click POST (RFC 8058)
 * from another origin gets through the HTTP edge; a forged link is a 404 page that says why.
 */

// The suite's server signs with this secret (playwright.config.ts, scripts/e2e-pg-stack.ts); the
// token is made as models/notifications/notification-mail.server.ts `unsubscribeToken` makes it.
const SESSION_SECRET = "e2e-session-secret-0123456789abcdef";
const tokenFor = (userId: number) =>
  `${userId}-${createHmac("sha256", SESSION_SECRET).update(`notification-email-unsubscribe:${userId}`).digest("base64url").slice(0, 32)}`;

test("a member turns notification emails off from the link, signed out", async ({ page, js, baseURL, signUp, newPage, open }) => {
  const member = await signUp();
  const me = (await (await page.request.get("/api/auth/user")).json()) as { id: number };
  const token = tokenFor(me.id);

  const visitor = await newPage();
  await open(`/unsubscribe/${token}`, visitor);
  await expect(visitor.getByRole("heading", { name: `Stop notification emails for @${member.username}?` })).toBeVisible();
  // Looking again changes nothing.
  await visitor.reload();
  await visitor.getByRole("button", { name: "Stop notification emails" }).click();
  await expect(visitor.getByRole("heading", { name: "Notification emails are off" })).toBeVisible();
  await expect(visitor.getByTestId("unsubscribed")).toContainText(`You will get no more notification emails for @${member.username}.`);
  await expect(visitor.getByTestId("unsubscribed").getByRole("link", { name: "Settings › Notifications" })).toHaveAttribute(
    "href",
    "/settings?tab=notifications",
  );
  await expect(visitor).toHaveURL(`${baseURL}/unsubscribe/${token}?was=daily`);

  // Changed their mind (ux-3 U25): back on from the same page, signed out, as often as they choose.
  await visitor.setViewportSize({ width: 390, height: 844 });
  const backOn = visitor.getByRole("group", { name: "Changed your mind? Turn them back on" });
  await expect(backOn.getByRole("radio", { name: /Daily digest/ })).toBeChecked();
  if (js) await expectNoAxeViolations(visitor);
  await backOn.getByRole("radio", { name: /Weekly digest/ }).check();
  await visitor.getByRole("button", { name: "Turn emails back on" }).click();
  await expect(visitor.getByRole("heading", { name: `Stop notification emails for @${member.username}?` })).toBeVisible();
  await expect(visitor.getByTestId("toast")).toContainText("Notification emails are on");
  await expect(visitor).toHaveURL(`${baseURL}/unsubscribe/${token}`);
  // Signed in, Settings says the same.
  await open("/settings?tab=notifications");
  await expect(page.getByRole("radio", { name: /Weekly digest/ })).toBeChecked();

  // A forged link: a 404 page that says what to do instead.
  const forged = await visitor.goto(`/unsubscribe/${me.id}-${"A".repeat(32)}`);
  expect(forged?.status()).toBe(404);
  await expect(visitor.getByRole("heading", { name: "This link doesn't work" })).toBeVisible();
  await expect(visitor.getByText("You can turn notification emails off in Settings › Notifications.")).toBeVisible();
});

test("a mail client's one-click POST (RFC 8058) from its provider's origin", async ({ page, signUp, newPage }) => {
  await signUp();
  const me = (await (await page.request.get("/api/auth/user")).json()) as { id: number };
  const token = tokenFor(me.id);
  const provider = await newPage();
  const res = await provider.request.post(`/unsubscribe/${token}`, {
    form: { "List-Unsubscribe": "One-Click" },
    headers: { Origin: "https://mail.example.net" },
  });
  expect(res.status()).toBe(200);
  await provider.goto(`/unsubscribe/${token}`);
  await expect(provider.getByRole("heading", { name: "Notification emails are off" })).toBeVisible();
  // Other pages' cross-site posts are still refused.
  const other = await provider.request.post("/settings?tab=notifications", { form: {}, headers: { Origin: "https://mail.example.net" } });
  expect(other.status()).toBe(403);
});
