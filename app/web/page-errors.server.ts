import type { SubmissionResult } from "@conform-to/react";
import { type ActionFunctionArgs, data, redirect } from "react-router";
import { isAppError, isRefusal, type FieldErrors } from "~/utils/errors";
import { signInHref } from "~/utils/urls";
import { assertSameOrigin } from "./origin.server";
import { toastCookie } from "./toast.server";

/**
 * The page side of the error family: the one place where a domain error becomes what a person sees
 * on an HTML page (the JSON side is `api.server.ts`).
 *
 * - 401 (sign in first): a redirect to /auth that brings the member back, with the reason as a toast.
 * - 403 / 404 (a refusal, or nothing there): the route's ErrorBoundary with that status and message.
 * - Anything else (invalid input, a conflict, too many attempts): the form comes back with the message
 *   on its field or above it, keeping what was typed.
 */

/** What a failed plain (non-Conform) form post answers: the message and the fields it concerns. */
export type PageFailure = { error: string; fieldErrors: FieldErrors };

/**
 * Wrap every HTML route's action:
 * `export async function action(args: ActionFunctionArgs) { return withPageErrors(args, async () => …) }`.
 * Cross-site posts are refused (403) before the handler runs. The handler's own answers keep their
 * types, so `useActionData<typeof action>()` sees them, plus `PageFailure`.
 */
export async function withPageErrors<R>(
  args: ActionFunctionArgs,
  handler: (args: ActionFunctionArgs) => Promise<R> | R,
): Promise<R | ReturnType<typeof data<PageFailure>>> {
  try {
    assertSameOrigin(args.request);
    return await handler(args);
  } catch (error) {
    if (error instanceof Response || !isAppError(error)) throw error;
    if (error.status === 401) throw await signInRedirect(args.request, error.message);
    if (isRefusal(error)) throw refusalResponse(error.status, error.message);
    return data<PageFailure>(
      { error: error.message, fieldErrors: error.fieldErrors ?? {} },
      { status: error.status, headers: retryHeaders(error) },
    );
  }
}

/**
 * A loader's domain error, as the page shows it: 401 to sign in and back, 403/404 to the route's
 * ErrorBoundary. `hideForbidden` answers a refusal as "not found" (a private thing is as missing as
 * one that does not exist); `notFound` names the missing thing in SPEC's words.
 */
export async function loaderError(
  request: Request,
  error: unknown,
  { notFound, hideForbidden = false }: { notFound?: string; hideForbidden?: boolean } = {},
): Promise<never> {
  if (!isAppError(error)) throw error;
  if (error.status === 401) throw await signInRedirect(request, error.message);
  if (error.status === 404 || (error.status === 403 && hideForbidden)) throw refusalResponse(404, notFound ?? error.message);
  if (error.status === 403) throw refusalResponse(403, error.message);
  throw refusalResponse(error.status, error.message);
}

/**
 * Wrap a loader's body: its domain errors answer as `loaderError` says; redirects and other
 * responses it throws pass through. `return withLoaderErrors(request, async () => data(…), { notFound })`.
 */
export async function withLoaderErrors<T>(
  request: Request,
  body: () => Promise<T> | T,
  options?: { notFound?: string; hideForbidden?: boolean },
): Promise<T> {
  try {
    return await body();
  } catch (error) {
    return loaderError(request, error, options);
  }
}

type Replyable = {
  reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }) => SubmissionResult<string[]>;
};

/**
 * The reply of a Conform form that did not go through: its input failed the schema (no `error`),
 * or the domain refused it with a fixable error. The form keeps every value (but `hideFields`) and
 * shows the message on its field, or above the form. Refusals are thrown on to `withPageErrors`;
 * on the sign-in form (`signInFailure`) a 401 (wrong pair) or 403 (suspended) is the answer itself. Returns the Conform result and
 * the status and headers to answer it with; most actions want `formReply`, which answers it.
 */
export function submissionFailure(
  submission: Replyable,
  { error, hideFields: hidden, signInFailure = false }: FailureOptions = {},
): { result: SubmissionResult<string[]>; init: ResponseInit } {
  const hideFields = hidden ? [...hidden] : undefined;
  if (error === undefined) return { result: submission.reply({ hideFields }), init: { status: 400 } };
  if (!isAppError(error) || (isRefusal(error) && !(signInFailure && (error.status === 401 || error.status === 403)))) throw error;
  const fieldErrors = error.fieldErrors ?? {};
  const formErrors = Object.keys(fieldErrors).length ? [] : [error.message];
  return {
    result: submission.reply({ formErrors, fieldErrors, hideFields }),
    init: { status: error.status, headers: retryHeaders(error) },
  };
}

type FailureOptions = { error?: unknown; hideFields?: readonly string[]; signInFailure?: boolean };

/**
 * `submissionFailure` as the action's answer, `{ ...data, result }`: `data` is merged into the body
 * (for example the `intent` of the form, where a page has several).
 */
export function formReply<const D extends Record<string, unknown> = Record<never, never>>(
  submission: Replyable,
  { data: fields, ...options }: FailureOptions & { data?: D } = {},
): ReturnType<typeof data<D & { result: SubmissionResult<string[]> }>> {
  const { result, init } = submissionFailure(submission, options);
  return data({ ...(fields as D), result }, init);
}

async function signInRedirect(request: Request, reason: string): Promise<Response> {
  return redirect(signInHref(comeBackTo(request)), {
    headers: { "Set-Cookie": await toastCookie({ title: "Sign in required", description: reason, type: "error" }) },
  });
}

function refusalResponse(status: number, message: string) {
  return data({ message }, { status });
}

function retryHeaders(error: { retryAfter?: number }): Headers {
  const headers = new Headers();
  if (error.retryAfter) headers.set("Retry-After", String(error.retryAfter));
  return headers;
}

/**
 * Where sign-in should bring the member back to: for a GET, this page; for a failed post, the page
 * the form was on (its Referer, when it is this site), else the URL posted to.
 */
function comeBackTo(request: Request): string {
  const url = new URL(request.url);
  if (request.method !== "GET") {
    const referer = request.headers.get("Referer");
    if (referer) {
      try {
        const ref = new URL(referer);
        if (ref.host === url.host) return `${ref.pathname}${ref.search}`;
      } catch {
        /* not a URL: use the one posted to */
      }
    }
  }
  return `${url.pathname}${url.search}`;
}
