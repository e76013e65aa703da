import { createHmac } from "node:crypto";
import { createCookie, redirect } from "react-router";
import { createSession, endedSessionNotice, endSessionByToken, findSession, liveSessionOf } from "~/models/members/session.server";
import { toSelfUser } from "~/models/members/user.server";
import { isProduction, sessionSecret } from "~/utils/env.server";
import { unauthorized } from "~/utils/errors";
import { noteMember } from "~/utils/logger.server";
import { deviceLabel } from "~/utils/user-agent";
import { VISITOR } from "~/offline/saved-pages";
import { pathWithSearch, signInHref } from "~/utils/urls";
import type { Toast } from "~/utils/toast";
import { toastCookie } from "./toast.server";
import type { SelfUser } from "~/schemas/shapes";

/**
 * The session cookie holds only a random session token, signed with SESSION_SECRET; the session
 * itself (member, device, expiry) is a row in the shared database
 * (docs/decisions/0017-server-side-sessions.md), so every process on the file serves the same
 * sessions and ending one ends it everywhere. A tampered cookie fails the signature check, and a
 * cookie from before server-side sessions (`{userId, v}`) is not a token: both read as signed out.
 *
 * The server's expiry (30 days from last use, sliding) is the one that counts. The browser is asked
 * to keep the cookie for 400 days (the longest browsers allow) so that a member who keeps using the
 * site is never signed out by the browser while the server still knows the session.
 */
const sessionCookie = createCookie("__session", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  secure: isProduction,
  secrets: [sessionSecret],
  maxAge: 400 * 24 * 60 * 60,
});

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export type SessionUser = SelfUser;
/** The signed-in member, the session the request came with, and the member's Data saver and "Blur graphic photos" settings. */
export type SignedIn = { user: SessionUser; sessionId: number; dataSaver: boolean; blurGraphic: boolean };

type CookieToken = { sent: boolean; token: string | null };

/**
 * Parsed Cookie headers (the signature check is the costly part, and one request asked up to five
 * times): a pure function of the header and the secret, so kept by header, a few hundred at most.
 */
const parsedCookies = new Map<string, Promise<CookieToken>>();
const PARSED_COOKIES_MAX = 500;

/** Whether the request sent a session cookie, and the token in it when it is a correctly signed one. */
function cookieToken(request: Request): Promise<CookieToken> {
  const header = request.headers.get("Cookie") ?? "";
  let parsed = parsedCookies.get(header);
  if (!parsed) {
    if (parsedCookies.size >= PARSED_COOKIES_MAX) parsedCookies.clear();
    parsed = parseCookieToken(header);
    parsedCookies.set(header, parsed);
  }
  return parsed;
}

async function parseCookieToken(header: string): Promise<CookieToken> {
  const value: unknown = await sessionCookie.parse(header || null);
  return { sent: value !== null && value !== "", token: typeof value === "string" && TOKEN.test(value) ? value : null };
}

/** readSession's answer per request: the root's and the page's loaders both ask, and the document's headers. */
const sessionOfRequest = new WeakMap<Request, ReturnType<typeof lookUpSession>>();

/**
 * The member and session of this request, and, when the request sent a session cookie that no longer
 * names a live session (ended, expired, or in the old format), the Set-Cookie that drops it and, when
 * a suspension ended it, the suspension's notice (`endedBecause`, ux-3 U7): the answer that drops the
 * cookie is the one that tells it, so the member is told once.
 */
type RequestSession = { signedIn: SignedIn | null; dropCookie: string | null; endedBecause: string | null };

export function readSession(request: Request): Promise<RequestSession> {
  let answer = sessionOfRequest.get(request);
  if (!answer) {
    answer = lookUpSession(request);
    sessionOfRequest.set(request, answer);
  }
  return answer;
}

async function lookUpSession(request: Request): Promise<RequestSession> {
  const { sent, token } = await cookieToken(request);
  const found = token ? await findSession(token) : undefined;
  if (found) {
    noteMember(found.user.id);
    const { user } = found;
    const signedIn = { user: toSelfUser(user), sessionId: found.session.id, dataSaver: user.dataSaver, blurGraphic: user.blurGraphic };
    return { signedIn, dropCookie: null, endedBecause: null };
  }
  if (!sent) return { signedIn: null, dropCookie: null, endedBecause: null };
  return { signedIn: null, dropCookie: await clearedCookie(), endedBecause: token ? await endedSessionNotice(token) : null };
}

/** Did the request send a correctly signed session token? (No database read: cache-control.server.ts.) */
export async function sentSessionToken(request: Request): Promise<boolean> {
  return (await cookieToken(request)).token !== null;
}

/**
 * Whom a page is drawn for, as a page validator needs it (conditional.server.ts), read without a
 * write: "v" for a visitor, "m<member>.<session>" for a live session, null when the answer will
 * set a cookie (a session cookie naming no live session is dropped) and so has no validator.
 */
export async function viewerKey(request: Request, now: number = Date.now()): Promise<string | null> {
  const { sent, token } = await cookieToken(request);
  if (!sent) return "v";
  const live = token ? await liveSessionOf(token, now) : undefined;
  if (!live) return null;
  noteMember(live.userId);
  // Data saver draws the member's pages differently (images as placeholders), and so does "Blur
  // graphic photos" turned off (graphic posts' pictures drawn): a new validator when either flips.
  return `m${live.userId}.${live.id}${live.dataSaver ? ".d" : ""}${live.blurGraphic ? "" : ".g"}`;
}

/**
 * Whose page an answer is, for the service worker's saved pages (`X-Pulse-Viewer`,
 * docs/decisions/0033-service-worker-saved-pages.md): one opaque tag per member (an HMAC of the
 * member's id, the same across their sessions, naming nothing), `visitor` for anyone else.
 */
export async function viewerTag(request: Request): Promise<string> {
  // The session the page's loaders read (the same request, so no second look-up).
  const signedIn = (await readSession(request)).signedIn;
  if (!signedIn) return VISITOR;
  // A member who shows graphic photos is another viewer than the same member blurring them
  // (docs/decisions/0091-graphic-photos.md): turning blur back on makes the worker drop every page it
  // saved with the pictures drawn, so none is served offline afterwards.
  const key = `viewer:${signedIn.user.id}${signedIn.blurGraphic ? "" : ":graphic-shown"}`;
  let tag = viewerTags.get(key);
  if (!tag) {
    if (viewerTags.size >= PARSED_COOKIES_MAX) viewerTags.clear();
    tag = createHmac("sha256", sessionSecret).update(key).digest("base64url").slice(0, 22);
    viewerTags.set(key, tag);
  }
  return tag;
}
const viewerTags = new Map<string, string>();

export async function getSignedIn(request: Request): Promise<SignedIn | null> {
  return (await readSession(request)).signedIn;
}

export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  return (await getSignedIn(request))?.user ?? null;
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
export async function requireActor(request: Request, message?: string): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw unauthorized(message);
  return user;
}

/**
 * Sign the member in: a new server-side session (labelled with the device `request` came from) and
 * the Set-Cookie that carries its token. Every sign-in gets its own session and token.
 */
export async function commitUserSession(user: { id: number }, request?: Request): Promise<string> {
  const { token } = await createSession(user.id, deviceLabel(request?.headers.get("User-Agent")));
  return sessionCookie.serialize(token);
}

const clearedCookie = () => sessionCookie.serialize("", { maxAge: 0, expires: new Date(0) });

/** Log out: the request's session ends on the server, and the browser is told to drop the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const { token } = await cookieToken(request);
  if (token) await endSessionByToken(token);
  sessionOfRequest.delete(request);
  return clearedCookie();
}

export async function redirectSignedIn(user: { id: number }, request: Request, redirectTo: string, toast: Toast) {
  const headers = new Headers();
  headers.append("Set-Cookie", await commitUserSession(user, request));
  headers.append("Set-Cookie", await toastCookie(toast));
  return redirect(redirectTo, { headers });
}
