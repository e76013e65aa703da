/**
 * JSON answers without Remix's `json()`, which React Router 7 removes (issue 40). Resource routes
 * (`/api/*`, tus) answer a real `Response` (`jsonResponse`); page loaders and actions answer
 * `data(value, init)`, which single fetch encodes for the page. Where one piece of code sees both (the
 * idempotency keys of form posts, tests calling an action), `asResponse` reads either as the HTTP
 * JSON answer it stands for.
 */

/**
 * A real HTTP JSON answer: the body as JSON with `Content-Type: application/json; charset=utf-8`
 * unless `init` names another (what `json()` answered; the web's `Response.json` alone says no charset).
 */
export function jsonResponse<T>(body: T, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json; charset=utf-8");
  return Response.json(body, { ...init, headers });
}

/** What `data(value, init)` returns (Remix's and React Router 7's `DataWithResponseInit`). */
type DataAnswer = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };

/** Is this a `data()` answer? (Checked as the router itself checks it.) */
export function isDataAnswer(value: unknown): value is DataAnswer {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "DataWithResponseInit" &&
    "data" in value &&
    "init" in value
  );
}

/**
 * A loader's or action's answer as the HTTP JSON answer it stands for: a `Response` as it is, a
 * `data()` answer with its status and headers, a bare value as a 200, each body as `json()` wrote it.
 */
export function asResponse(answer: unknown): Response {
  if (answer instanceof Response) return answer;
  if (isDataAnswer(answer)) return jsonResponse(answer.data, answer.init ?? {});
  return jsonResponse(answer);
}
