import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { getUserRowById, toSelfUser } from "~/models/user.server";
import { isProduction, sessionSecret } from "~/utils/env.server";
import { unauthorized } from "~/utils/errors";
import { pathWithSearch, signInHref } from "~/utils/urls";
import type { Toast } from "~/utils/toast";
import { toastCookie } from "./toast.server";
import type { SelfUser } from "~/schemas/shapes";

/**
 * The session is one signed cookie holding the member's id and session version
 * (docs/decisions/0001-sessions-in-signed-cookies.md). Nothing lives in process memory, so any
 * number of processes sharing the database serve the same sessions. A tampered cookie fails the
 * signature check and reads as signed out.
 */
export const sessionStorage = createCookieSessionStorage({
  cookie: {
    name: "__session",
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction,
    secrets: [sessionSecret],
    maxAge: 60 * 60 * 24 * 30,
  },
});

export type SessionUser = SelfUser;

export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  const session = await sessionStorage.getSession(request.headers.get("Cookie"));
  const userId = session.get("userId");
  const version = session.get("v");
  if (typeof userId !== "number") return null;
  const row = getUserRowById(userId);
  // A password change bumps the version and so ends every other session.
  if (!row || row.sessionVersion !== version) return null;
  return toSelfUser(row);
}

/** The sign-in page, bringing the visitor back to this request's page afterwards. */
export function loginRedirectUrl(request: Request): string {
  return signInHref(pathWithSearch(new URL(request.url)));
}

/** Pages: a visitor is sent to sign in and brought back afterwards. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect(loginRedirectUrl(request));
  return user;
}

/** Domain-style guard: throws the 401 of the error family (JSON routes and actions). */
export async function requireActor(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw unauthorized();
  return user;
}

export async function commitUserSession(user: { id: number; sessionVersion: number }): Promise<string> {
  const session = await sessionStorage.getSession();
  session.set("userId", user.id);
  session.set("v", user.sessionVersion);
  return sessionStorage.commitSession(session);
}

export async function destroyUserSession(request: Request): Promise<string> {
  const session = await sessionStorage.getSession(request.headers.get("Cookie"));
  return sessionStorage.destroySession(session);
}

export async function redirectSignedIn(user: { id: number; sessionVersion: number }, redirectTo: string, toast: Toast) {
  const headers = new Headers();
  headers.append("Set-Cookie", await commitUserSession(user));
  headers.append("Set-Cookie", await toastCookie(toast));
  return redirect(redirectTo, { headers });
}
