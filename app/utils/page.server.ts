import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { isAppError } from "./errors";
import { assertSameOrigin } from "./origin.server";
import { loginRedirectUrl } from "./session.server";
import { toastCookie } from "./toast.server";

/**
 * The page side of the error family. Every HTML route's action is wrapped in `pageAction` (import
 * it from "~/utils/page-action", NOT from here: route modules are also bundled for the browser, where
 * this .server module is empty, and `export const action = pageAction(...)` runs at module load):
 * cross-site posts are refused with 403, a visitor who must sign in is sent to /auth and brought
 * back, a missing thing or a refusal goes to the ErrorBoundary with its status, and any other
 * domain error is returned as `{ error, fieldErrors }` so the form shows it next to what was typed.
 */
export async function runPageAction(
  args: ActionFunctionArgs,
  handler: (args: ActionFunctionArgs) => Promise<Response> | Response,
): Promise<Response> {
  {
    try {
      assertSameOrigin(args.request);
      return await handler(args);
    } catch (error) {
      if (error instanceof Response) throw error;
      if (!isAppError(error)) throw error;
      if (error.status === 401) {
        throw redirect(loginRedirectUrl(refererOrSelf(args.request)), {
          headers: { "Set-Cookie": await toastCookie({ title: "Sign in required", description: error.message, type: "error" }) },
        });
      }
      if (error.status === 403 || error.status === 404) {
        throw json({ message: error.message }, { status: error.status });
      }
      const headers = new Headers();
      if (error.retryAfter) headers.set("Retry-After", String(error.retryAfter));
      return json({ error: error.message, fieldErrors: error.fieldErrors ?? {} }, { status: error.status, headers });
    }
  }
}

/** After a failed post, sign-in should bring the member back to the page they were on. */
function refererOrSelf(request: Request): Request {
  const referer = request.headers.get("Referer");
  if (referer) {
    try {
      const ref = new URL(referer);
      if (ref.host === new URL(request.url).host) return new Request(ref.toString());
    } catch {
      /* fall through */
    }
  }
  return request;
}

/**
 * For Conform forms: a domain error after the input parsed becomes the submission's reply, so
 * the form keeps every value and shows the message on the field (or above the form).
 */
export function replyWithError(
  submission: { reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }) => SubmissionResult<string[]> },
  error: unknown,
  { hideFields = [], signInFailure = false }: { hideFields?: string[]; signInFailure?: boolean } = {},
) {
  // A 401 usually means "sign in first" (pageAction redirects); on the sign-in form it is the answer.
  if (!isAppError(error) || (error.status === 401 && !signInFailure) || error.status === 403 || error.status === 404) throw error;
  const fieldErrors = error.fieldErrors ?? {};
  const formErrors = Object.keys(fieldErrors).length ? [] : [error.message];
  const headers = new Headers();
  if (error.retryAfter) headers.set("Retry-After", String(error.retryAfter));
  return json(submission.reply({ formErrors, fieldErrors, hideFields }), { status: error.status, headers });
}

/**
 * Did the browser's JavaScript send this request (a Remix fetcher or a client navigation), rather
 * than a plain HTML form post or link? Remix strips its `?_data=` marker from `request.url` before a
 * loader or action runs, so the URL cannot tell. Browsers label every request instead: a form post
 * or link is `Sec-Fetch-Mode: navigate`, a fetch() is `cors` / `same-origin`. Without the header
 * (curl, very old browsers) the request is treated as a plain form post: it gets the redirect, which
 * a fetcher also handles (by navigating), so nothing breaks.
 */
export function isScriptRequest(request: Request): boolean {
  const mode = request.headers.get("Sec-Fetch-Mode");
  return mode !== null && mode !== "navigate";
}
