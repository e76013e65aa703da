import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { safeParse, type $ZodType, type output } from "zod/v4/core";
import { badRequest, invalid, isAppError, unsupportedMedia } from "~/utils/errors";
import { applyCacheControl } from "./cache-control.server";
import { assertSameOrigin } from "./origin.server";
import { BODY_LIMITS, readBodyText } from "./request-body.server";
import { databaseUnavailableError } from "~/utils/db.server";
import { logServerError } from "~/utils/logger.server";
import { zodFieldErrors } from "~/utils/validation";
import { headerKey, idempotent } from "./idempotency.server";
import { jsonResponse } from "./json-response.server";
import { getSessionUser } from "./session.server";

/** `/api/*` answers JSON with this (json-response.server.ts). */
export { jsonResponse };

/** CONTRACT.md §2: every error answer is `{ error, fieldErrors? }` with the family's status. */
export function errorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  // The database gone away (PostgreSQL unreachable, a connection lost): a 503, logged once by the data layer.
  const known = databaseUnavailableError(error) ?? error;
  if (isAppError(known)) {
    const headers = new Headers({ "Cache-Control": "no-store" });
    if (known.retryAfter) headers.set("Retry-After", String(known.retryAfter));
    const body: { error: string; fieldErrors?: Record<string, string[]> } = { error: known.message };
    if (known.fieldErrors) body.fieldErrors = known.fieldErrors;
    return jsonResponse(body, { status: known.status, headers });
  }
  logServerError(error);
  return jsonResponse({ error: "Something went wrong on our side. Please try again." }, { status: 500 });
}

type Handler<Args> = (args: Args) => Promise<Response> | Response;

/**
 * `/api/*` GET handlers: errors become JSON answers, and every answer gets the Cache-Control of
 * cache-control.server.ts (`private, no-cache` for a member; `NO_STORE` where the handler says so).
 */
export function apiLoader(handler: Handler<LoaderFunctionArgs>) {
  return async (args: LoaderFunctionArgs) => {
    let response: Response;
    try {
      response = await handler(args);
    } catch (error) {
      response = errorResponse(error);
    }
    await applyCacheControl(args.request, response.headers, [response.headers.get("Cache-Control")], response.status);
    return response;
  };
}

/**
 * `/api/*` mutations: cross-site requests are refused (403), a method the URL does not take is 405,
 * errors become JSON answers, and a member's call with an `Idempotency-Key` runs once per key
 * (idempotency.server.ts).
 */
export function apiAction(handlers: Partial<Record<"POST" | "PUT" | "PATCH" | "DELETE", Handler<ActionFunctionArgs>>>) {
  return async (args: ActionFunctionArgs) => {
    try {
      assertSameOrigin(args.request);
      const handler = handlers[args.request.method.toUpperCase() as keyof typeof handlers];
      if (!handler) {
        return jsonResponse(
          { error: `Method ${args.request.method} is not allowed here` },
          { status: 405, headers: { Allow: Object.keys(handlers).join(", ") } },
        );
      }
      const key = headerKey(args.request);
      const member = key ? await getSessionUser(args.request) : null;
      return await idempotent(args.request, member?.id, key, () => handler(args));
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * Is this Content-Type exactly `application/json`, with at most a UTF-8 `charset`? A type that merely
 * contains the words (`text/plain; application/json`, `text/plain;charset=application/json`) is a
 * CORS-safelisted type a cross-site page can send without a preflight, so it is refused.
 */
export function isJsonContentType(header: string | null): boolean {
  const [type, ...params] = (header ?? "").split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  return params.filter(Boolean).every((param) => /^charset=("?)utf-8\1$/.test(param));
}

/**
 * Read a JSON body (capped at 256 KB while it streams: 413 past it) and validate it with the
 * input's schema (the same one the HTML form uses).
 */
export async function readJson<S extends $ZodType>(request: Request, schema: S): Promise<output<S>> {
  if (!isJsonContentType(request.headers.get("Content-Type"))) throw unsupportedMedia("Send the body as application/json");
  const text = await readBodyText(request, BODY_LIMITS.json);
  let body: unknown;
  try {
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("The request body must be a JSON object");
  }
  const parsed = safeParse(schema, body);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error));
  return parsed.data;
}

/**
 * A JSON list answer of one keyset page: the items as an array and, when more exist,
 * `Link: <this URL with cursor=…>; rel="next"`.
 */
export function listPageResponse<T>(url: URL, items: T[], nextCursor: string | null | undefined): Response {
  const headers = new Headers();
  if (nextCursor) {
    const next = new URL(url);
    next.searchParams.set("cursor", nextCursor);
    headers.set("Link", `<${next.toString()}>; rel="next"`);
  }
  return jsonResponse(items, { headers });
}

/** For `/api/*` URLs that take no GET: `export const loader = methodNotAllowed;`. */
export const methodNotAllowed = () => jsonResponse({ error: "Method GET is not allowed here" }, { status: 405 });
