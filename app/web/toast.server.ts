import { randomUUID } from "node:crypto";
import { createCookieSessionStorage, data, redirect } from "react-router";
import { z } from "zod";
import { isProduction, sessionSecret } from "~/utils/env.server";
import type { Toast } from "~/utils/toast";

/** A toast as the cookie carries it; anything else (an old or hand-made cookie) shows no toast. */
const toastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  type: z.enum(["success", "error", "info"]).optional(),
  id: z.string().optional(),
}) satisfies z.ZodType<Toast & { id?: string }>;

/**
 * Toasts travel in their own flash cookie, so they survive the redirect of a plain HTML form post and
 * show without JavaScript. The root loader reads (and clears) it on the next page.
 */
const toastStorage = createCookieSessionStorage({
  cookie: {
    name: "__toast",
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction,
    secrets: [sessionSecret],
  },
});

export async function toastCookie(toast: Toast): Promise<string> {
  const session = await toastStorage.getSession();
  // The id lets the page show it once, even when the page is drawn again from the same data.
  session.flash("toast", { ...toast, id: randomUUID() });
  return toastStorage.commitSession(session);
}

export async function getToast(request: Request): Promise<{ toast: (Toast & { id?: string }) | null; headers: Headers | null }> {
  const session = await toastStorage.getSession(request.headers.get("Cookie"));
  const stored: unknown = session.get("toast");
  if (stored === undefined) return { toast: null, headers: null };
  const parsed = toastSchema.safeParse(stored);
  return { toast: parsed.success ? parsed.data : null, headers: new Headers({ "Set-Cookie": await toastStorage.commitSession(session) }) };
}

/** Does the request carry a toast still to show? (Its page shows it once and clears the cookie.) */
export async function hasPendingToast(request: Request): Promise<boolean> {
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes("__toast=")) return false;
  return (await toastStorage.getSession(cookie)).has("toast");
}

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie(toast));
  return redirect(url, { ...init, headers });
}

export async function jsonWithToast<T>(value: T, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie(toast));
  return data(value, { ...init, headers });
}
