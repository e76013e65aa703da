import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { registerUser } from "~/models/user.server";
import { commitUserSession } from "~/utils/session.server";

const ORIGIN = "http://localhost:3000";

type RequestOptions = {
  method?: string;
  json?: unknown;
  form?: Record<string, string | string[]>;
  cookie?: string | null;
  headers?: Record<string, string>;
};

/** A Request as a browser on this site would send it (same Origin). */
export function makeRequest(path: string, { method, json, form, cookie, headers = {} }: RequestOptions = {}) {
  const h = new Headers(headers);
  let body: BodyInit | undefined;
  const m = method ?? (json !== undefined || form ? "POST" : "GET");
  if (json !== undefined) {
    h.set("Content-Type", "application/json");
    body = typeof json === "string" ? json : JSON.stringify(json);
  } else if (form) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
    h.set("Content-Type", "application/x-www-form-urlencoded");
    body = params.toString();
  }
  if (m !== "GET" && !h.has("Origin")) h.set("Origin", ORIGIN);
  if (cookie) h.set("Cookie", cookie);
  return new Request(`${ORIGIN}${path}`, { method: m, headers: h, body });
}

type Handler = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;

/** Call a loader or action; thrown Responses (redirects, 404s) are returned, not thrown. */
export async function call(handler: Handler, request: Request, params: Record<string, string> = {}): Promise<Response> {
  try {
    const result = await handler({ request, params, context: {} });
    return result as Response;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

let n = 0;
/** Create a member directly and return them with a signed session cookie. */
export async function createMember(overrides: Partial<{ username: string; displayName: string; email: string; password: string }> = {}) {
  n += 1;
  const username = overrides.username ?? `member${n}_${Math.random().toString(36).slice(2, 7)}`;
  const password = overrides.password ?? "secret123";
  const row = await registerUser({
    username,
    displayName: overrides.displayName ?? `Member ${n}`,
    email: overrides.email ?? `${username}@example.com`,
    password,
  });
  const cookie = (await commitUserSession(row)).split(";")[0]!;
  return { ...row, password, cookie };
}

/** The name=value pairs of every Set-Cookie on a response, joined for a follow-up request. */
export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
