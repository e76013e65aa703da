import type { Page } from "@playwright/test";
import { expect, test, uniqueName, type Member } from "./fixtures";

/**
 * Clubs and invite links, with JavaScript off (plain forms, ?join=1 / ?edit=1 inline forms) and on
 * (dialogs, tag chips, auto-join on the invite page). Two members act in two browser contexts.
 */

/** A second member in their own browser (same JavaScript setting as the project). */
async function secondMember(newPage: () => Promise<Page>, signUp: (into: Page) => Promise<Member>) {
  const page = await newPage();
  const member = await signUp(page);
  return { page, member };
}

type ClubOptions = { name?: string; isPrivate?: boolean; memberLimit?: string; tags?: string[]; rules?: string };

/** Create a club through /clubs/create; returns its id. */
async function createClub(page: Page, js: boolean, options: ClubOptions = {}) {
  const name = options.name ?? `Club ${uniqueName("c")}`;
  await page.goto("/clubs");
  await page.getByRole("link", { name: "Create Club" }).click();
  await expect(page).toHaveURL("/clubs/create");
  const form = page.locator("form#create-club");
  await form.getByLabel("Club name").fill(name);
  await form.getByLabel("Description").fill("Hunters of the creek bottom: plans, work days and harvest logs.");
  await form.getByLabel("Location (optional)").fill("Pike County, IL");
  const privateSwitch = form.getByRole("switch", { name: "Private Club" });
  await expect(privateSwitch).toBeChecked(); // default on
  if (options.isPrivate === false) await privateSwitch.uncheck();
  if (options.memberLimit) await form.getByLabel("Member limit (optional)").fill(options.memberLimit);
  const tags = options.tags ?? ["bow hunting", "lease"];
  if (js) {
    const input = form.getByRole("textbox", { name: "Tags" });
    for (const tag of tags) {
      await input.fill(tag);
      await input.press("Enter");
    }
    for (const tag of tags) await expect(form.getByRole("button", { name: `Remove tag ${tag}` })).toBeVisible();
  } else {
    await form.getByLabel("Tags").fill(tags.join(", "));
  }
  if (options.rules) await form.getByLabel("Rules (optional)").fill(options.rules);
  await form.getByRole("button", { name: "Create Club" }).click();
  await expect(page.getByTestId("toast")).toContainText("Club created!");
  await expect(page).toHaveURL(/\/clubs\/\d+$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  const id = Number(/\/clubs\/(\d+)/.exec(page.url())![1]);
  return { id, name };
}

/** Open the join form (a dialog with JavaScript, ?join=1 without), write a message and send it. */
async function requestToJoin(page: Page, clubId: number, message: string, button: "Request to Join" | "Re-apply" = "Request to Join") {
  await page.goto(`/clubs/${clubId}`);
  await page.getByRole("link", { name: button }).click();
  await page.getByLabel("Message (optional)").fill(message);
  await page.getByRole("button", { name: "Send Request" }).click();
  await expect(page.getByTestId("toast")).toContainText("Request sent");
  await expect(page.getByRole("button", { name: "Request Pending" })).toBeDisabled();
}

async function decide(owner: Page, clubId: number, requester: string, action: "Approve" | "Reject") {
  await owner.goto(`/clubs/${clubId}`);
  await owner.getByRole("link", { name: /Requests \(\d+\)/ }).click();
  const request = owner.getByTestId("join-request").filter({ hasText: requester });
  await expect(request).toBeVisible();
  await request.getByRole("button", { name: action }).click();
  await expect(owner.getByTestId("toast")).toContainText(action === "Approve" ? "Request approved" : "Request rejected");
}

test.describe("clubs", () => {
  // Most flows sign up two members and walk several pages: give them room on a busy 2-core machine.
  test.describe.configure({ timeout: 90_000 });

  test("create a club: SPEC messages keep what was typed, then the owner's page", async ({ page, js, signUp }) => {
    await page.goto("/clubs/create");
    await expect(page.getByRole("heading", { name: "Sign In Required" })).toBeVisible();
    await signUp();

    await page.goto("/clubs/create");
    const form = page.locator("form#create-club");
    await form.getByLabel("Club name").fill("ab");
    await form.getByLabel("Location (optional)").fill("Buffalo County, WI");
    await form.getByLabel("Image URL (optional)").fill("");
    await form.getByRole("button", { name: "Create Club" }).click();
    await expect(form).toContainText("Club name must be at least 3 characters");
    await expect(form.getByLabel("Location (optional)")).toHaveValue("Buffalo County, WI");

    const club = await createClub(page, js, { memberLimit: "12", rules: "Blaze orange on every drive." });
    await expect(page.getByLabel("Private club").first()).toBeVisible();
    await expect(page.getByTestId("club-member-count")).toContainText("1 / 12 members");
    await expect(page.getByRole("list", { name: "Tags" })).toContainText("bow hunting");
    await expect(page.getByRole("link", { name: "Edit Club" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Delete Club" })).toBeVisible();
    await page.getByRole("link", { name: "Rules" }).click();
    await expect(page.getByTestId("club-rules")).toContainText("Blaze orange on every drive.");
    await page.getByRole("link", { name: "Members" }).click();
    await expect(page.getByTestId("club-member")).toContainText("Owner");

    // It is listed under My Clubs with View Club.
    await page.goto("/clubs?tab=mine");
    const card = page.getByTestId("club-card").filter({ hasText: club.name });
    await expect(card.getByRole("link", { name: "View Club" })).toBeVisible();
    await page.goto(`/clubs?search=${encodeURIComponent(club.name)}`);
    await expect(page.getByTestId("club-card")).toHaveCount(1);
    await page.goto(`/clubs?search=${encodeURIComponent("no club is called this zzz")}`);
    await expect(page.getByTestId("clubs-empty")).toHaveText("No clubs found matching your search");
  });

  test("the owner edits the club and deletes it after confirming", async ({ page, js, signUp }) => {
    await signUp();
    const club = await createClub(page, js);
    await page.getByRole("link", { name: "Edit Club" }).click();
    const edit = js ? page.getByRole("dialog") : page.locator("form#edit-club-page");
    await edit.getByLabel("Description").fill("short");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(edit).toContainText("Description must be at least 10 characters");
    await edit.getByLabel("Description").fill("A longer description of the lease and its members.");
    await edit.getByLabel("Max members").fill("30");
    await edit.getByLabel("Tags").fill("rifle, deer camp");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByTestId("toast")).toContainText("Club updated");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByTestId("club-member-count")).toContainText("1 / 30 members");
    await expect(page.getByRole("list", { name: "Tags" })).toContainText("deer camp");

    await page.getByRole("link", { name: "Delete Club" }).click();
    await expect(page.getByText("Are you sure you want to delete this club?")).toBeVisible();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page.getByTestId("toast")).toContainText("Club deleted");
    await expect(page).toHaveURL("/clubs");
    const gone = await page.goto(`/clubs/${club.id}`);
    expect(gone?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Club Not Found" })).toBeVisible();
    await expect(page.getByText("This club doesn't exist or has been deleted")).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Clubs" })).toHaveAttribute("href", "/clubs");
  });

  test("request to join a private club, the owner approves, the member leaves", async ({ page, js, signUp, newPage }) => {
    await signUp();
    const club = await createClub(page, js);
    const other = await secondMember(newPage, signUp);

    // Not a member: the posts stay private, the Members tab is open.
    await other.page.goto(`/clubs/${club.id}`);
    await expect(other.page.getByTestId("club-posts-private")).toBeVisible();
    await expect(other.page.getByRole("link", { name: "Invites" })).toHaveCount(0);

    await requestToJoin(other.page, club.id, "I hunt the farm next door.");
    await page.goto(`/clubs/${club.id}`);
    await expect(page.getByRole("link", { name: "Requests (1)" })).toBeVisible();
    await page.getByRole("link", { name: "Requests (1)" }).click();
    await expect(page.getByTestId("join-request")).toContainText("I hunt the farm next door.");
    await decide(page, club.id, other.member.displayName, "Approve");
    await expect(page.getByRole("link", { name: /Requests/ })).toHaveCount(0);

    await other.page.goto(`/clubs/${club.id}`);
    await expect(other.page.getByTestId("club-member-count")).toContainText("2 members");
    await expect(other.page.getByRole("link", { name: "Create Post" })).toBeVisible();
    // Leaving asks first (issue 14, beyond SPEC #2): clubs-leave.spec.ts covers the confirmation.
    await other.page.getByRole("link", { name: "Leave Club" }).click();
    await other.page.getByRole("alertdialog").getByRole("button", { name: "Leave Club" }).click();
    await expect(other.page.getByTestId("toast")).toContainText("Left club");
    await expect(other.page.getByRole("link", { name: "Request to Join" })).toBeVisible();
    await expect(other.page.getByTestId("club-member-count")).toContainText("1 member");

    // The owner cannot leave: there is no Leave button for them.
    await page.goto(`/clubs/${club.id}`);
    await expect(page.getByRole("link", { name: "Leave Club" })).toHaveCount(0);
  });

  test("a member posts in the club through the shared editor with the club banner", async ({ page, js, signUp }) => {
    await page.goto("/clubs/1/create");
    await expect(page).toHaveURL(/\/auth\?mode=login/);
    await signUp();
    const club = await createClub(page, js);
    await page.getByRole("link", { name: "Create Post" }).click();
    await expect(page).toHaveURL(`/clubs/${club.id}/create`);
    await expect(page.getByTestId("club-banner")).toContainText(club.name);
    await page.getByLabel("Title", { exact: true }).fill("Work day on Saturday");
    await page.getByTestId("post-content-input").fill("Bring a chainsaw and gloves: we are clearing the shooting lanes by the creek.");
    await page.getByRole("button", { name: "Publish Post" }).click();
    await expect(page.getByTestId("toast")).toContainText("Post created!");
    await expect(page).toHaveURL(`/clubs/${club.id}`);
    await expect(page.getByTestId("post-card")).toContainText("Work day on Saturday");
    // A private club's post stays out of the home feed.
    await page.goto("/");
    await expect(page.getByText("Work day on Saturday")).toHaveCount(0);
  });

  test("the owner rejects a request and the hunter re-applies", async ({ page, js, signUp, newPage }) => {
    await signUp();
    const club = await createClub(page, js);
    const other = await secondMember(newPage, signUp);
    await requestToJoin(other.page, club.id, "First try.");
    await decide(page, club.id, other.member.displayName, "Reject");

    await other.page.goto(`/clubs/${club.id}`);
    await expect(other.page.getByRole("link", { name: "Re-apply" })).toBeVisible();
    await other.page.goto("/clubs");
    await expect(other.page.getByTestId("club-card").filter({ hasText: club.name }).getByRole("link", { name: "Re-apply" })).toBeVisible();
    await requestToJoin(other.page, club.id, "Second try: I can help on work days.", "Re-apply");

    await page.goto(`/clubs/${club.id}?tab=requests`);
    await expect(page.getByTestId("join-request")).toContainText("Second try");
  });

  test("a public club is joined straight from the list", async ({ page, js, signUp, newPage }) => {
    await signUp();
    const club = await createClub(page, js, { isPrivate: false });
    await expect(page.getByLabel("Public club").first()).toBeVisible();
    const other = await secondMember(newPage, signUp);
    await other.page.goto(`/clubs?tab=public&search=${encodeURIComponent(club.name)}`);
    const card = other.page.getByTestId("club-card").filter({ hasText: club.name });
    await card.getByRole("button", { name: "Join Club" }).click();
    await expect(other.page.getByTestId("toast")).toContainText("Joined club");
    await expect(card.getByRole("link", { name: "View Club" })).toBeVisible();
  });

  test("generate an invite, Generate New, revoke", async ({ page, js, signUp }) => {
    await signUp();
    const club = await createClub(page, js);
    await page.getByRole("link", { name: "Invites" }).click();
    await page.getByLabel("Max uses (optional)").fill("0");
    await page.getByRole("button", { name: "Generate Invite Link" }).click();
    await expect(page.getByText("Max uses must be at least 1")).toBeVisible();
    await page.getByLabel("Max uses (optional)").fill("2");
    await page.getByLabel("Expires in hours (optional)").fill("24");
    await page.getByRole("button", { name: "Generate Invite Link" }).click();
    await expect(page.getByTestId("toast")).toContainText("Invite link created");
    const generated = page.getByTestId("generated-invite");
    const link = await generated.getByRole("textbox", { name: "Invite link" }).inputValue();
    expect(link).toMatch(new RegExp(`^http://localhost:\\d+/join/[A-Za-z0-9_-]{16,}$`));
    await expect(generated).toContainText("2 uses left");
    await expect(generated.getByRole("link", { name: "Share" })).toHaveAttribute("href", /twitter\.com\/intent\/tweet/);
    if (js) await expect(generated.getByRole("button", { name: "Copy" })).toBeVisible();

    await generated.getByRole("link", { name: "Generate New" }).click();
    await expect(page.getByRole("button", { name: "Generate Invite Link" })).toBeVisible();
    const active = page.getByTestId("active-invite");
    await expect(active).toHaveCount(1);
    await expect(active).toContainText(new URL(link).pathname);
    await active.getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByTestId("toast")).toContainText("Invite revoked");
    await expect(page.getByTestId("active-invite")).toHaveCount(0);

    const response = await page.goto(new URL(link).pathname);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Invalid Invite" })).toBeVisible();
    await expect(page.getByText("This invite link is invalid or has expired.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Browse Clubs" })).toBeVisible();
    void club;
  });

  test("register through an invite: the new account lands in the private club", async ({ page, js, signUp, newPage }) => {
    await signUp();
    const club = await createClub(page, js);
    await page.goto(`/clubs/${club.id}?tab=invites`);
    await page.getByLabel("Max uses (optional)").fill("1");
    await page.getByRole("button", { name: "Generate Invite Link" }).click();
    const path = new URL(await page.getByRole("textbox", { name: "Invite link" }).inputValue()).pathname;

    const guest = await newPage();
    await guest.goto(path);
    await expect(guest.getByRole("heading", { name: club.name })).toBeVisible();
    await expect(guest.getByTestId("invite-details")).toContainText("1 use remaining");
    await expect(guest.getByRole("link", { name: "Already have an account? Sign In" })).toHaveAttribute(
      "href",
      `/auth?mode=login&redirectTo=${encodeURIComponent(path)}`,
    );
    await guest.getByRole("link", { name: "Sign Up & Join Club" }).click();
    await expect(guest).toHaveURL(/\/auth\?mode=register&inviteCode=/);
    if (js) expect(await guest.evaluate(() => sessionStorage.getItem("inviteCode"))).toBe(path.split("/").pop());

    const name = uniqueName("inv");
    const form = guest.locator("form#register");
    await form.getByLabel("Username").fill(name);
    await form.getByLabel("Display name").fill(`Invited ${name}`);
    await form.getByLabel("Email").fill(`${name}@example.com`);
    await form.getByLabel("Password").fill("secret123");
    await form.getByRole("button", { name: "Join Now" }).click();
    await expect(guest.getByTestId("toast")).toContainText("Welcome to Whitetail Pulse");
    await expect(guest.getByRole("heading", { level: 1 })).toContainText(club.name);
    await expect(guest.getByRole("link", { name: "Leave Club" })).toBeVisible();
    await expect(guest.getByTestId("club-member-count")).toContainText("2 members");
    if (js) {
      await expect(guest).toHaveURL(new RegExp(`/clubs/${club.id}$`));
      expect(await guest.evaluate(() => sessionStorage.getItem("inviteCode"))).toBeNull();
    }

    // The one use is spent: the next visitor is told, and a registration with it creates nothing.
    const late = await newPage();
    await late.goto(path);
    await expect(late.getByRole("heading", { name: "Invalid Invite" })).toBeVisible();
    await late.goto(`/auth?mode=register&inviteCode=${path.split("/").pop()}`);
    const lateName = uniqueName("late");
    const lateForm = late.locator("form#register");
    await lateForm.getByLabel("Username").fill(lateName);
    await lateForm.getByLabel("Display name").fill("Late Hunter");
    await lateForm.getByLabel("Email").fill(`${lateName}@example.com`);
    await lateForm.getByLabel("Password").fill("secret123");
    await lateForm.getByRole("button", { name: "Join Now" }).click();
    await expect(late.getByTestId("toast")).toContainText("This invite link is invalid or has expired.");
    await expect(lateForm.getByLabel("Username")).toHaveValue(lateName);
    await late.goto(`/profile/${lateName}`);
    await expect(late.getByText("Profile Not Found")).toBeVisible();
  });

  test("a signed-in member joins through an invite (on load with JavaScript, a button without)", async ({ page, js, signUp, newPage }) => {
    await signUp();
    const club = await createClub(page, js);
    await page.goto(`/clubs/${club.id}?tab=invites`);
    await page.getByRole("button", { name: "Generate Invite Link" }).click();
    const path = new URL(await page.getByRole("textbox", { name: "Invite link" }).inputValue()).pathname;

    const other = await secondMember(newPage, signUp);
    await other.page.goto(path);
    if (!js) {
      await expect(other.page.getByRole("heading", { name: club.name })).toBeVisible();
      await other.page.getByRole("button", { name: "Join Club" }).click();
    }
    await expect(other.page.getByTestId("toast")).toContainText("Welcome to the club!");
    await expect(other.page).toHaveURL(new RegExp(`/clubs/${club.id}`));
    await expect(other.page.getByRole("link", { name: "Leave Club" })).toBeVisible();

    // Already a member: the invite page sends them to the club.
    await other.page.goto(path);
    await expect(other.page).toHaveURL(new RegExp(`/clubs/${club.id}$`));
  });

  // Issue 14 (Beyond SPEC #17) changed this test: a pending requester used to see only "Your request
  // to join this club is pending approval."; now the invite admits them.
  test("a pending requester opening an invite joins through it", async ({ page, js, signUp, newPage }) => {
    await signUp();
    const club = await createClub(page, js);
    await page.goto(`/clubs/${club.id}?tab=invites`);
    await page.getByRole("button", { name: "Generate Invite Link" }).click();
    const path = new URL(await page.getByRole("textbox", { name: "Invite link" }).inputValue()).pathname;
    const other = await secondMember(newPage, signUp);
    await requestToJoin(other.page, club.id, "Waiting");
    await other.page.goto(path);
    if (!js) await other.page.getByRole("button", { name: "Join Club" }).click();
    await expect(other.page.getByTestId("toast")).toContainText("Welcome to the club!");
    await expect(other.page.getByRole("link", { name: "Leave Club" })).toBeVisible();
  });
});
