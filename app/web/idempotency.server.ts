import { createHash, randomUUID } from "node:crypto";
import { claimKey, recordAnswer, releaseKey, type StoredAnswer } from "~/models/idempotency.server";
import { AppError, badRequest, conflict, tooMany } from "~/utils/errors";
import { IDEMPOTENCY_FIELD } from "~/utils/idempotency";
import { asResponse } from "./json-response.server";
import { BODY_LIMITS, bodyType, readBodyBytes } from "./request-body.server";

/**
 * Idempotency keys at the HTTP edge (CONTRACT.md §6 and §10, docs/decisions/0030-idempotency-keys.md,
 * 0055-idempotency-key-covers-the-body-and-stores-little.md): the one place that turns a repeat of a member's request into the first answer. `/api/*` mutations
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

/** A form's key, with the form it came in (its fields are part of the request's fingerprint). */
export type FormKey = { key: string; form: FormData };

/** The `Idempotency-Key` header of an API call (null when it has none); its body is fingerprinted as sent. */
export const headerKey = (request: Request) => checkedKey(request.headers.get("Idempotency-Key"));
/** The hidden `idempotencyKey` of a form (null when it has none). */
export function formKey(form: FormData): FormKey | null {
  const key = checkedKey(form.get(IDEMPOTENCY_FIELD));
  return key ? { key, form } : null;
}

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/**
 * Fields left out of a form's fingerprint: the key itself; `intent`, which the outbox adds to a
 * resend of a form that has none (the post editor's); `uploadedFiles`, which a multipart post form
 * fills with the names its files were stored under, new on every resend without JavaScript. Files
 * are left out too (their bytes are stored as they stream, before the key is looked at).
 */
const UNFINGERPRINTED = new Set([IDEMPOTENCY_FIELD, "intent", "uploadedFiles"]);

/** A form's fields as a digest: the same fields in any order, urlencoded or multipart, give the same one. */
function formDigest(form: FormData): string {
  const fields: string[] = [];
  for (const [name, value] of form) {
    if (typeof value === "string" && !UNFINGERPRINTED.has(name)) fields.push(JSON.stringify([name, value]));
  }
  return sha256(fields.sort().join("\n"));
}

/**
 * An API call's body as a digest, read from a clone (the handler reads the request itself) and
 * capped like a JSON body, the only kind the API reads whole (over it: 413, as the handler would
 * answer). A multipart body (`/api/upload`) streams its files to storage and is never held whole, so
 * it is not compared: "multipart" stands for it.
 */
async function bodyDigest(request: Request): Promise<string> {
  if (bodyType(request.headers.get("Content-Type")) === "multipart/form-data") return "multipart";
  if (!request.body) return sha256("");
  return sha256(await readBodyBytes(request.clone(), BODY_LIMITS.json));
}

/**
 * The most of an answer's body a key keeps (security-2 N8). A larger JSON object keeps its small
 * fields (an id, counts, dates, short names) up to this size, and its replay names the fields left
 * out in `Idempotent-Omitted` (read the resource again for them); any other larger body is left
 * out whole (`Idempotent-Omitted: body`).
 */
export const STORED_BODY_MAX = 2_048;
/** A field of a large JSON answer longer than this (as JSON) is left out of what is kept. */
const SMALL_FIELD_MAX = 256;

function keptBody(body: string): { body: string; omitted: string[] } {
  if (Buffer.byteLength(body) <= STORED_BODY_MAX) return { body, omitted: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { body: "", omitted: ["body"] };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { body: "", omitted: ["body"] };
  const kept: Record<string, unknown> = {};
  const omitted: string[] = [];
  let size = 2;
  for (const [name, value] of Object.entries(parsed)) {
    const entry = Buffer.byteLength(JSON.stringify({ [name]: value })) - 1;
    if (entry <= SMALL_FIELD_MAX && size + entry <= STORED_BODY_MAX) {
      kept[name] = value;
      size += entry;
    } else omitted.push(name);
  }
  return { body: JSON.stringify(kept), omitted };
}

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

/** Each Set-Cookie apart (Node's Headers, or the fetch polyfill server.js installs). */
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
 * - the first request runs; an answer below 400 (it changed something) is stored (capped:
 *   `keptBody`) and replayed to any repeat within 24 hours; an error answer, or a thrown error, frees
 *   the key (nothing changed);
 * - a repeat while the first is still running: 409, and it does not run;
 * - the key reused for another method, path or body: 422, and it does not run;
 * - a new key of a member holding KEYS_PER_MEMBER already: 429 with Retry-After, and it does not run.
 * The fingerprint is the method, the path (not the query: a form post and its `?_data=` twin, the
 * same form sent by script, are the same request) and a digest of the body: an API call's bytes, or
 * a form's fields (`formDigest`).
 * The answer is an API call's `Response`, or a page action's `data()` or redirect: what is kept is
 * the HTTP JSON answer it stands for (`asResponse`), and a repeat gets that as a `Response`, which
 * the page's action data is read from as `json()`'s was.
 */
export async function idempotent<R>(
  request: Request,
  memberId: number | null | undefined,
  keyOrForm: string | FormKey | null,
  run: () => Promise<R> | R,
): Promise<R> {
  if (!keyOrForm || !memberId) return run();
  const isForm = typeof keyOrForm !== "string";
  const key = isForm ? keyOrForm.key : keyOrForm;
  const digest = isForm ? formDigest(keyOrForm.form) : await bodyDigest(request);
  const fingerprint = `${request.method.toUpperCase()} ${new URL(request.url).pathname} sha256=${digest}`;
  const claim = await claimKey(memberId, key, fingerprint);
  if (claim.kind === "replay") return replay(claim.answer) as R;
  if (claim.kind === "in-flight") throw conflict("A request with this idempotency key is still in progress. Try again shortly.");
  if (claim.kind === "mismatch") {
    throw new AppError(
      422,
      isForm
        ? "This form was already sent once with other content, and that first send was saved. Reload the page to see it."
        : "This idempotency key was already used for a different request",
    );
  }
  if (claim.kind === "full") {
    throw tooMany(
      Math.ceil(claim.retryAfterMs / 1000),
      isForm
        ? "You have sent a great many forms today. Please wait a while and try again."
        : "Too many idempotency keys in 24 hours. Try again later, or send this request without a key.",
    );
  }
  let response: R;
  try {
    response = await run();
  } catch (error) {
    await releaseKey(memberId, key);
    throw error;
  }
  const answer = asResponse(response);
  if (answer.status >= 400) {
    await releaseKey(memberId, key);
    return response;
  }
  const { body, omitted } = keptBody(answer.status === 204 ? "" : await answer.clone().text());
  const headers = keptHeaders(answer.headers);
  if (omitted.length) headers.push(["Idempotent-Omitted", omitted.join(", ").slice(0, 512)]);
  await recordAnswer(memberId, key, { status: answer.status, reply: { headers, body } });
  return response;
}
