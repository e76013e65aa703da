import type { ActionFunctionArgs } from "@remix-run/node";

type Handler = (args: ActionFunctionArgs) => Promise<Response> | Response;

/**
 * Wrap every HTML route's action: `export const action = pageAction(async ({ request }) => …)`.
 * Cross-site posts are refused (403), a visitor who must sign in is sent to /auth and back, a
 * missing thing or a refusal goes to the ErrorBoundary, other domain errors come back as
 * `{ error, fieldErrors }` (see page.server.ts).
 *
 * This module is browser-safe on purpose: Remix bundles route modules for the browser too, and the
 * call above runs when the module loads there. The server half is imported only when the action runs.
 */
export function pageAction(handler: Handler) {
  return async (args: ActionFunctionArgs): Promise<Response> => {
    const { runPageAction } = await import("./page-errors.server");
    return runPageAction(args, handler);
  };
}
