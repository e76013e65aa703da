import { randomUUID } from "node:crypto";
import { claimKey, recordAnswer, releaseKey, type StoredAnswer } from "~/models/idempotency.server";
import { AppError, badRequest, conflict } from "~/utils/errors";
import { IDEMPOTENCY_FIELD } from "~/utils/idempotency";

/**
 * Idempotency keys at the HTTP edge (CONTRACT.md §6, docs/decisions/0030-idempotency-keys.md): the
 * one place that turns a repeat of a member's request into the first answer. `/api/*` mutations
 * (`apiAction`) read the `Idempotency-Key` header; the forms that create something send a hidden
 * `idempotencyKey`, and their actions pass it here once they have read the form.
 */

/** A fresh key for a rendered form (the root loader hands one to the page). */
export const newIdempotencyKey = () => randomUUID();

const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

function checkedKey(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value !== "string" || !VALID_KEY.test(value)) {
    throw badRequest("An idempotency key is 1 to 255 visible ASCII characters");
  }
  return value;
}

/** The `Idempotency-Key` header of an API call (null when it has none). */
export const headerKey = (request: Request) => checkedKey(request.headers.get("Idempotency-Key"));
/** The hidden `idempotencyKey` of a form (null when it has none). */
export const formKey = (form: FormData) => checkedKey(form.get(IDEMPOTENCY_FIELD));

/** Headers a replay repeats: what the client reads, and the flash toast (never a session cookie). */
function keptHeaders(headers: Headers): [string, string][] {
  const kept: [string, string][] = [];
  for (const name of ["Content-Type", "Location"]) {
    const value = headers.get(name);
    if (value !== null) kept.push([name, value]);
  }
  for (const cookie of setCookies(headers)) if (cookie.startsWith("__toast=")) kept.push(["Set-Cookie", cookie]);
  return kept;
}

/** Each Set-Cookie apart (Node's Headers, or the fetch polyfill remix-serve installs). */
function setCookies(headers: Headers): string[] {
  if (typeof headers.getSetCookie === "function") return headers.getSetCookie();
  return (headers as unknown as { getAll?: (name: string) => string[] }).getAll?.("Set-Cookie") ?? [];
}

function replay({ status, reply }: StoredAnswer): Response {
  const headers = new Headers({ "Idempotent-Replayed": "true", "Cache-Control": "no-store" });
  for (const [name, value] of reply.headers) headers.append(name, value);
  return new Response(status === 204 || status === 304 || reply.body === "" ? null : reply.body, { status, headers });
}

/**
 * Run a member's request once per key. Without a key or a member it simply runs. With one:
 * - the first request runs; an answer below 400 (it changed something) is stored and replayed to any
 *   repeat within 24 hours; an error answer, or a thrown error, frees the key (nothing changed);
 * - a repeat while the first is still running: 409, and it does not run;
 * - the key reused for another method or path: 422, and it does not run.
 * The fingerprint is the method and path, not the query: a form post and its `?_data=` twin (the
 * same form sent by script) are the same request.
 */
export async function idempotent<R extends Response>(
  request: Request,
  memberId: number | null | undefined,
  key: string | null,
  run: () => Promise<R> | R,
): Promise<R> {
  if (!key || !memberId) return run();
  const fingerprint = `${request.method.toUpperCase()} ${new URL(request.url).pathname}`;
  const claim = claimKey(memberId, key, fingerprint);
  if (claim.kind === "replay") return replay(claim.answer) as R;
  if (claim.kind === "in-flight") throw conflict("A request with this idempotency key is still in progress. Try again shortly.");
  if (claim.kind === "mismatch") {
    throw new AppError(422, "This idempotency key was already used for a different request");
  }
  let response: R;
  try {
    response = await run();
  } catch (error) {
    releaseKey(memberId, key);
    throw error;
  }
  if (response.status >= 400) {
    releaseKey(memberId, key);
    return response;
  }
  const body = response.status === 204 ? "" : await response.clone().text();
  recordAnswer(memberId, key, { status: response.status, reply: { headers: keptHeaders(response.headers), body } });
  return response;
}
