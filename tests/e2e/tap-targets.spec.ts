import type { Page } from "@playwright/test";
import { apiClub, expect, setSiteRole, test, type Member } from "./fixtures";

/**
 * Issue 31 (audit ux-2 V6, N15): on a 390 px phone every visible tap target is at least 44 × 44 px
 * (WCAG 2.5.5), with JavaScript off and on, on every page a visitor and a member reach.
 *
 * A target is an a[href], button, visible input (not hidden), select, textarea, summary,
 * [role=button], or a label wrapping a checkbox or radio. It passes when:
 *  1. its rendered box is at least 44 × 44 px; or
 *  2. it is an inline link inside a sentence (WCAG's "inline" exception): its computed display is
 *     inline and the block around it has text of its own besides the link; or
 *  3. its effective hit area is at least 44 × 44 px: what activates it as well (its label, an
 *     enclosing link, button or label) is at least 44 × 44 px, or every point of the 44 × 44 square
 *     centred on it (centre, corners, edge midpoints) hits the target itself (padding, a ::before
 *     overlay, a transparent border) or what activates it. A neighbour inside the square
 *     fails it, so two small targets side by side fail even when each looks big enough alone.
 * Each offender is reported by its name (aria-label or text) and its size.
 */

const PHONE = { width: 390, height: 844 };
const MIN = 44;

type Offender = { name: string; width: number; height: number };

/** The targets under 44 × 44 px on the page as it is now (runs in the page, no page script needed). */
async function smallTargets(page: Page): Promise<Offender[]> {
  return page.evaluate((min) => {
    const selector = [
      "a[href]",
      "button",
      'input:not([type="hidden"])',
      "select",
      "textarea",
      "summary",
      '[role="button"]',
      'label:has(> input[type="checkbox"], > input[type="radio"], input[type="checkbox"], input[type="radio"])',
    ].join(",");
    const nameOf = (el: Element) =>
      (
        el.getAttribute("aria-label") ||
        (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
          ? `${el.tagName.toLowerCase()}[name=${el.getAttribute("name") ?? ""}]${el.labels?.[0]?.textContent ? ` "${el.labels[0].textContent.trim()}"` : ""}`
          : "") ||
        (el.textContent ?? "").replace(/\s+/g, " ").trim() ||
        el.getAttribute("title") ||
        el.outerHTML.slice(0, 80)
      ).slice(0, 60);
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      // Visually hidden (sr-only: 1 px, clipped) is not a tap target: its visible label is.
      if (box.width <= 1 || box.height <= 1) return false;
      const style = getComputedStyle(el);
      return style.visibility !== "hidden" && style.display !== "none" && Number(style.opacity) > 0;
    };
    /** WCAG 2.5.5's inline exception: a link in a sentence, sized by the line it sits in. */
    const inlineInText = (el: Element) => {
      if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
      let block = el.parentElement;
      while (block && getComputedStyle(block).display === "inline") block = block.parentElement;
      const own = (el.textContent ?? "").trim().length;
      const around = (block?.textContent ?? "").replace(/\s+/g, " ").trim().length;
      return around > own + 3;
    };
    /** What a tap at a point activates the target through: itself, its labels, an enclosing link/button/label. */
    const activators = (el: Element) => {
      const list: Element[] = [el];
      if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
        for (const label of Array.from(el.labels ?? [])) list.push(label);
      }
      const parent = el.parentElement?.closest("a[href], button, label");
      if (parent) list.push(parent);
      return list;
    };
    const hitAreaBigEnough = (el: Element) => {
      // A checkbox in a 44 px label row, an icon in a 44 px link: the label or link is the target.
      const own = activators(el);
      if (
        own.slice(1).some((a) => {
          const box = a.getBoundingClientRect();
          return box.width >= min - 0.5 && box.height >= min - 0.5;
        })
      ) {
        return true;
      }
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      const box = el.getBoundingClientRect();
      const cx = box.left + box.width / 2;
      const cy = box.top + box.height / 2;
      const half = min / 2 - 0.5;
      for (const dx of [-half, 0, half]) {
        for (const dy of [-half, 0, half]) {
          const hit = document.elementFromPoint(cx + dx, cy + dy);
          if (!hit || !own.some((a) => a.contains(hit))) return false;
        }
      }
      return true;
    };

    const offenders: Array<{ name: string; width: number; height: number }> = [];
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (!visible(el)) continue;
      const { width, height } = el.getBoundingClientRect();
      if (width >= min - 0.5 && height >= min - 0.5) continue;
      if (inlineInText(el)) continue;
      if (hitAreaBigEnough(el)) continue;
      offenders.push({ name: nameOf(el), width: Math.round(width), height: Math.round(height) });
    }
    window.scrollTo({ top: 0, behavior: "instant" });
    return offenders;
  }, MIN);
}

/** Opens `url` on a phone, checks its targets (softly: every page is reported) and that nothing is wider than the phone. */
async function check(page: Page, js: boolean, url: string, label = url) {
  await page.setViewportSize(PHONE);
  await page.goto(url);
  if (js) {
    await page.waitForFunction(() => {
      if (document.documentElement.dataset.scripts === "none") return true;
      const main = document.querySelector("main");
      return Boolean(main && Object.keys(main).some((k) => k.startsWith("__reactFiber")));
    });
  }
  const offenders = await smallTargets(page);
  const list = offenders.map((o) => `  "${o.name}" ${o.width}×${o.height}`).join("\n");
  expect.soft(offenders, `${label}: ${offenders.length} tap targets under ${MIN} × ${MIN} px\n${list}`).toEqual([]);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(width, `${label}: document width on a 390 px phone`).toBeLessThanOrEqual(PHONE.width);
}

async function comment(page: Page, baseURL: string, postId: number, content: string) {
  const res = await page.request.post(`/api/posts/${postId}/comments`, { data: { content }, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
}

async function inviteCode(page: Page, baseURL: string, clubId: number) {
  const res = await page.request.post(`/api/clubs/${clubId}/invites`, { data: {}, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { inviteCode: string }).inviteCode;
}

test.describe("tap targets on a phone (WCAG 2.5.5, issue 31)", () => {
  test.describe.configure({ timeout: 180_000 });

  test("the like, comment and share icons of an action row share one line (audit N11)", async ({ page, js, signUp, createPost }) => {
    await signUp(page);
    const post = await createPost({}, page);
    for (const url of [`/post/${post.id}`, "/post/1"]) {
      await page.setViewportSize(PHONE);
      await page.goto(url);
      const row = page.getByTestId("post-actions").first();
      const middles = await row.evaluate((el) =>
        ["like-button", "comment-count", "share-button"].map((id) => {
          const box = el.querySelector(`[data-testid="${id}"] svg`)!.getBoundingClientRect();
          return Math.round((box.top + box.height / 2) * 10) / 10;
        }),
      );
      expect(
        Math.max(...middles) - Math.min(...middles),
        `${url} (${js ? "js" : "no js"}): icon middles ${middles.join(", ")}`,
      ).toBeLessThanOrEqual(1);
    }
    // A visitor's share is a link, the like a form.
    await page.context().clearCookies();
    await page.goto(`/post/${post.id}`);
    const middles = await page
      .getByTestId("post-actions")
      .first()
      .evaluate((el) =>
        ["like-button", "comment-count", "share-button"].map((id) => {
          const box = el.querySelector(`[data-testid="${id}"] svg`)!.getBoundingClientRect();
          return Math.round((box.top + box.height / 2) * 10) / 10;
        }),
      );
    expect(Math.max(...middles) - Math.min(...middles), `visitor: icon middles ${middles.join(", ")}`).toBeLessThanOrEqual(1);
  });

  test("every page a visitor reaches", async ({ page, js, signUp, createPost, newPage, baseURL }) => {
    const author = await newPage();
    const owner: Member = await signUp(author);
    const post = await createPost({ tags: ["rut", "bow"] }, author);
    await comment(author, baseURL!, post.id, "First comment on the morning sit.");
    const club = await apiClub(author, baseURL!, { tags: ["bow"], rules: "Be kind." });
    const code = await inviteCode(author, baseURL!, club.id);

    for (const url of [
      "/",
      `/post/${post.id}`,
      "/clubs",
      `/clubs/${club.id}`,
      "/clubs/1",
      "/clubs/1?tab=members",
      "/clubs/1?tab=rules",
      `/profile/${owner.username}`,
      "/profile/ridgerunner",
      "/auth?mode=login",
      "/auth?mode=register",
      "/forgot-password",
      "/search",
      "/search?q=deer",
      `/join/${code}`,
      "/no/such/page",
    ]) {
      await check(page, js, url);
    }
  });

  test("every page a member reaches", async ({ page, js, signUp, createPost, newPage, baseURL }) => {
    const member = await signUp(page);
    const post = await createPost({ tags: ["rut", "bow"] }, page);
    await comment(page, baseURL!, post.id, "My own comment, with Edit and Delete.");
    const other = await newPage();
    const neighbour = await signUp(other);
    await comment(other, baseURL!, post.id, "A neighbour's comment, with Report.");
    // A notification: the neighbour follows the member.
    const follow = await other.request.post(`/api/users/${member.username}/follow`, { headers: { Origin: baseURL! } });
    expect(follow.ok(), await follow.text()).toBe(true);
    const club = await apiClub(page, baseURL!, { tags: ["bow"], rules: "Be kind." });
    const code = await inviteCode(page, baseURL!, club.id);
    const join = await other.request.post(`/api/clubs/${club.id}/join`, { data: { message: "Let me in" }, headers: { Origin: baseURL! } });
    expect(join.ok(), await join.text()).toBe(true);
    const theirClub = await apiClub(other, baseURL!);
    const theirCode = await inviteCode(other, baseURL!, theirClub.id);
    setSiteRole(member.username, "moderator");

    for (const url of [
      "/",
      `/post/${post.id}`,
      "/post/1",
      "/clubs",
      "/clubs/create",
      `/clubs/${club.id}`,
      `/clubs/${club.id}?tab=members`,
      `/clubs/${club.id}?tab=rules`,
      `/clubs/${club.id}?tab=requests`,
      `/clubs/${club.id}?tab=invites`,
      "/create",
      `/profile/${member.username}`,
      `/profile/${neighbour.username}`,
      "/settings?tab=profile",
      "/settings?tab=security",
      "/settings?tab=notifications",
      "/settings?tab=privacy",
      "/search?q=deer",
      "/notifications",
      `/join/${code}`,
      `/join/${theirCode}`,
      "/no/such/page",
      "/moderation",
    ]) {
      await check(page, js, url);
    }
  });
});
