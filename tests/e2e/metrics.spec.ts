import { expect, test } from "./fixtures";

/**
 * CONTRACT.md §11 "Operators can see it": the running server counts each request under its route's
 * id and answers GET /metrics to a client on its own machine; through the reverse proxy (the
 * PostgreSQL run's nginx) it is a 404. No browser involved: run once.
 */
test("GET /metrics counts requests by route for a client on the machine, and is a 404 through the proxy", async ({ request, js }) => {
  test.skip(js, "no browser involved: run once");
  // Straight to an app node: the SQLite run's server, or node A behind the PostgreSQL run's nginx.
  const node = process.env.E2E_NODE_URL ?? "";
  const scrape = async () => {
    const response = await request.get(`${node}/metrics`);
    expect(response.status()).toBe(200);
    return response.text();
  };
  const count = (text: string, labels: string) =>
    Number(new RegExp(`http_request_duration_seconds_count\\{${labels}\\} (\\d+)`).exec(text)?.[1] ?? 0);
  const labels = String.raw`route="routes/post\.\$id",method="GET",status="404"`;
  const before = count(await scrape(), labels);
  expect((await request.get(`${node}/post/987654321`)).status()).toBe(404);
  const text = await scrape();
  expect(count(text, labels)).toBe(before + 1);
  expect(text).toMatch(/job_queue_rows\{job="notification-delivery",state="owed"\} \d+/);
  if (node) expect((await request.get("/metrics")).status()).toBe(404);
});
