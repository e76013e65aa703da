import type { LoaderFunctionArgs } from "react-router";
import { metricsText } from "~/utils/metrics.server";
import { mayReadMetrics } from "~/web/metrics-access.server";

/**
 * GET /metrics: Prometheus text (CONTRACT.md §11, docs/deploy/metrics.md) for loopback clients or a
 * bearer of METRICS_TOKEN; 404 for anyone else. Never cached, never a page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!mayReadMetrics(request)) return new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  const { body, contentType } = await metricsText();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
