import { describe, expect, it } from "vitest";
import { registerJobMetrics } from "~/server/jobs-metrics.server";
import { learnRoutes, routeLabel } from "~/server/request-log.server";
import { notify } from "~/models/notifications/notification.server";
import * as metricsRoute from "~/routes/metrics";
import { mayReadMetrics } from "~/web/metrics-access.server";
import { PEER_ADDRESS_HEADER } from "~/web/params.server";
import { call, createMember, makeRequest } from "#tests/fixtures/members";
import { makeClub } from "#tests/fixtures/posts";

/** CONTRACT.md §11 "Operators can see it": GET /metrics, its figures and who may read them. */

const asked = (peer: string, headers: Record<string, string> = {}) =>
  makeRequest("/metrics", { headers: { [PEER_ADDRESS_HEADER]: peer, ...headers } });
const TOKEN = "a-long-metrics-token-0123";

describe("GET /metrics", () => {
  it("answers Prometheus text to a client on this machine: requests, cache, jobs and their queues, the process", async () => {
    registerJobMetrics();
    const [staff, asker] = [await createMember(), await createMember()];
    await notify([staff.id], { kind: "join_request", actorId: asker.id, clubId: await makeClub(staff.id) });
    const response = await call(metricsRoute.loader, asked("127.0.0.1"));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const text = await response.text();
    for (const name of [
      "http_request_duration_seconds",
      "visitor_cache_lookups_total",
      "job_runs_total",
      "job_failures_total",
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    const owed = /job_queue_rows\{job="notification-delivery",state="owed"\} (\d+)/.exec(text);
    expect(Number(owed?.[1])).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/job_queue_rows\{job="notification-fanout",state="unfinished"\} \d+/);
  });

  it("is a 404 for anyone else: another address, a proxied request from this machine, a wrong or missing token", async () => {
    for (const request of [
      asked("203.0.113.9"),
      asked("10.0.0.2"),
      asked("127.0.0.1", { "X-Forwarded-For": "203.0.113.9" }),
      asked("127.0.0.1", { Forwarded: "for=203.0.113.9" }),
      asked("127.0.0.1", { Authorization: "Bearer something" }),
    ]) {
      const response = await call(metricsRoute.loader, request);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("# TYPE");
    }
    expect(mayReadMetrics(asked("203.0.113.9", { Authorization: `Bearer ${TOKEN}x` }), TOKEN)).toBe(false);
    expect(mayReadMetrics(asked("203.0.113.9"), TOKEN)).toBe(false);
    expect(mayReadMetrics(asked("::1"), TOKEN)).toBe(true);
  });

  it("answers a bearer of METRICS_TOKEN from anywhere", () => {
    expect(mayReadMetrics(asked("203.0.113.9", { Authorization: `Bearer ${TOKEN}` }), TOKEN)).toBe(true);
    expect(mayReadMetrics(asked("127.0.0.1", { "X-Forwarded-For": "203.0.113.9", Authorization: `bearer ${TOKEN}` }), TOKEN)).toBe(true);
  });
});

describe("the route a request is counted under", () => {
  it("is the route's id, never the raw path", () => {
    learnRoutes({
      root: { id: "root", path: "" },
      "routes/_index": { id: "routes/_index", index: true, parentId: "root" },
      "routes/post.$id": { id: "routes/post.$id", path: "post/:id", parentId: "root" },
      "routes/api.posts.$id.comments": { id: "routes/api.posts.$id.comments", path: "api/posts/:id/comments", parentId: "root" },
      "routes/$": { id: "routes/$", path: "*", parentId: "root" },
    });
    expect(routeLabel("/post/123")).toBe("routes/post.$id");
    expect(routeLabel("/post/9?tab=comments")).toBe("routes/post.$id");
    expect(routeLabel("/api/posts/77/comments")).toBe("routes/api.posts.$id.comments");
    expect(routeLabel("/")).toBe("routes/_index");
    expect(routeLabel("/post/1?_data=routes%2Fpost.%24id")).toBe("routes/post.$id");
    expect(routeLabel("/?_data=routes%2Fsomething-else")).toBe("unmatched");
    // Single fetch: a page's data request is counted under the page's route (docs/decisions/0079).
    expect(routeLabel("/post/1.data")).toBe("routes/post.$id");
    expect(routeLabel("/post/1.data?_routes=routes%2Fpost.%24id")).toBe("routes/post.$id");
    expect(routeLabel("/_root.data")).toBe("routes/_index");
    expect(routeLabel("/assets/chunk-ABC.js")).toBe("static");
    expect(routeLabel("/no/such/page")).toBe("routes/$");
  });
});
