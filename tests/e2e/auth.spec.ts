import { DEMO, expect, test, uniqueName } from "./fixtures";

test.describe("joining and signing in", () => {
  test("a newcomer joins, is greeted, sees the member menu and can log out", async ({ page }) => {
    // The join form itself (every other spec signs members up through the JSON API).
    const username = uniqueName("u");
    const member = { username, displayName: `Hunter ${username}` };
    await page.goto("/auth?mode=register");
    const form = page.locator("form#register");
    await form.getByLabel("Username").fill(username);
    await form.getByLabel("Display name").fill(member.displayName);
    await form.getByLabel("Email").fill(`${username}@example.com`);
    await form.getByLabel("Password").fill("secret123");
    await form.getByRole("button", { name: "Join Now" }).click();
    await expect(page.getByTestId("toast")).toContainText("Welcome to Whitetail Pulse");
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("link", { name: "Create" })).toBeVisible();
    // The avatar falls back to the first letter of the display name.
    await expect(page.getByTestId("avatar-initial").first()).toHaveText("H");
    await page.getByLabel("Account menu").click();
    const menu = page.getByTestId("user-menu");
    await expect(menu).toContainText(member.displayName);
    await expect(menu).toContainText(`@${member.username}`);
    await expect(menu.getByRole("link", { name: "Profile" })).toHaveAttribute("href", `/profile/${member.username}`);
    await expect(menu.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/settings");
    await menu.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByTestId("toast")).toContainText("Logged out");
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Create" })).toHaveCount(0);
  });

  test("a member signs in and is sent home; the auth page then redirects away", async ({ page, signIn }) => {
    await signIn(DEMO.username, DEMO.password);
    await expect(page).toHaveURL("/");
    await expect(page.getByTestId("toast")).toContainText("You've been successfully logged in.");
    await page.goto("/auth");
    await expect(page).toHaveURL("/");
  });

  test("a wrong password says so and keeps the username, not the password", async ({ page }) => {
    await page.goto("/auth?mode=login");
    const form = page.locator("form#login");
    await form.getByLabel("Username").fill(DEMO.username);
    await form.getByLabel("Password").fill("not-the-password");
    await form.getByRole("button", { name: "Sign In" }).click();
    // One message, SPEC.md §8's toast (issue 31 N5: no second box above the form).
    await expect(page.getByTestId("toast")).toContainText("Login failed");
    await expect(page.getByTestId("toast")).toContainText("Invalid username or password");
    await expect(form.getByLabel("Username")).toHaveValue(DEMO.username);
    await expect(form.getByLabel("Password")).toHaveValue("");
  });

  test("join validation shows SPEC's messages and keeps what was typed", async ({ page }) => {
    await page.goto("/auth?mode=register");
    const form = page.locator("form#register");
    await form.getByLabel("Username").fill("ab");
    await form.getByLabel("Display name").fill("J");
    await form.getByLabel("Email").fill("not-an-email");
    await form.getByLabel("Password").fill("123");
    await form.getByLabel("Location (optional)").fill("Pike County, IL");
    await form.getByRole("button", { name: "Join Now" }).click();
    await expect(form).toContainText("Username must be at least 3 characters");
    await expect(form).toContainText("Display name must be at least 2 characters");
    await expect(form).toContainText("Invalid email address");
    await expect(form).toContainText("Password must be at least 6 characters");
    await expect(form.getByLabel("Location (optional)")).toHaveValue("Pike County, IL");
    await expect(form.getByLabel("Display name")).toHaveValue("J");
  });

  test("a taken username is refused on the join form", async ({ page }) => {
    await page.goto("/auth?mode=register");
    const form = page.locator("form#register");
    await form.getByLabel("Username").fill(DEMO.username);
    await form.getByLabel("Display name").fill("Copy Cat");
    await form.getByLabel("Email").fill(`${uniqueName()}@example.com`);
    await form.getByLabel("Password").fill("secret123");
    await form.getByRole("button", { name: "Join Now" }).click();
    await expect(form).toContainText("Username is already taken");
    await expect(form.getByLabel("Display name")).toHaveValue("Copy Cat");
  });

  test("the tabs are links that choose the form", async ({ page }) => {
    await page.goto("/auth?mode=login");
    await expect(page.locator("form#login")).toBeVisible();
    await page.getByRole("tab", { name: "Join Now" }).click();
    await expect(page).toHaveURL(/mode=register/);
    await expect(page.locator("form#register")).toBeVisible();
    await expect(page.getByText("City, State")).toBeVisible();
    await page.getByRole("tab", { name: "Sign In" }).click();
    await expect(page.locator("form#login")).toBeVisible();
  });

  test("signing in from a page that asked for it comes back to that page", async ({ page }) => {
    await page.goto("/no-such-page-but-remembered");
    await page.getByRole("link", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/redirectTo=%2Fno-such-page-but-remembered/);
    const form = page.locator("form#login");
    await form.getByLabel("Username").fill(DEMO.username);
    await form.getByLabel("Password").fill(DEMO.password);
    await form.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL("/no-such-page-but-remembered");
  });
});

test.describe("the shell", () => {
  test("the search box sends trimmed text to the home page, and ignores empty text", async ({ page, js }) => {
    await page.goto("/auth");
    const box = page.getByPlaceholder("Search whitetail content...");
    await box.fill("   rub lines  ");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/\?search=rub(\+|%20)lines$/);
    await expect(page.getByPlaceholder("Search whitetail content...")).toHaveValue("rub lines");
    await page.goto("/auth");
    await page.getByPlaceholder("Search whitetail content...").fill("   ");
    await page.getByPlaceholder("Search whitetail content...").press("Enter");
    // With JavaScript empty text does nothing; without it the home page drops it.
    await expect(page).toHaveURL(js ? /\/auth$/ : /\/$/);
  });

  test("a cross-site form post is refused with 403 and changes nothing", async ({ page, baseURL }) => {
    const username = uniqueName("csrf");
    const response = await page.request.post("/api/auth/register", {
      data: { username, displayName: "Cross Site", email: `${username}@example.com`, password: "secret123" },
      headers: { Origin: "https://evil.example" },
    });
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ error: "Cross-site request refused" });
    const form = await page.request.post("/auth", {
      form: { intent: "login", username: DEMO.username, password: DEMO.password },
      headers: { Origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(form.status()).toBe(403);
    const login = await page.request.post("/api/auth/login", {
      data: { username, password: "secret123" },
      headers: { Origin: baseURL! },
    });
    expect(login.status()).toBe(401);
  });

  test("documents carry the security headers", async ({ page }) => {
    const response = await page.goto("/");
    const headers = response!.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    // Inline scripts are named by their hashes, never a nonce a shared cache would hand to many (ADR 0032).
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
    expect(headers["content-security-policy"]).not.toContain("nonce-");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });
});
