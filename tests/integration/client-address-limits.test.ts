import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as loginApi from "~/routes/api.auth.login";
import * as authPage from "~/routes/auth/route";
import { setRateLimitsEnabled } from "~/utils/rate-limit.server";
import { PEER_ADDRESS_HEADER } from "~/web/params.server";
import { startLimitsClock } from "../fixtures/limits-clock";
import { call, makeRequest } from "../fixtures/members";

/**
 * Security-2 N5: a client on a loopback or private address that writes a new X-Forwarded-For with
 * every attempt (TRUST_PROXY=0 here, as in the test environment) is counted by its socket for the
 * per-address sign-in limit, on the JSON API and on the sign-in page. It used to count as
 * "untrusted" and skip the limit: 14 × 401, never 429.
 */

beforeEach(startLimitsClock);
afterEach(() => {
  vi.useRealTimers();
  setRateLimitsEnabled(false);
});

const attempt = (i: number, peer: string) => ({
  [PEER_ADDRESS_HEADER]: peer,
  "X-Forwarded-For": `198.51.100.${i}`,
});

describe("per-address sign-in limit for a client that rotates X-Forwarded-For", () => {
  it("POST /api/auth/login: 10 × 401, then 429", async () => {
    setRateLimitsEnabled(true);
    const answers: number[] = [];
    for (let i = 0; i < 14; i++) {
      const res = await call(
        loginApi.action,
        makeRequest("/api/auth/login", { json: { username: `nobody${i}x`, password: "wrong-pass" }, headers: attempt(i, "127.0.0.9") }),
      );
      answers.push(res.status);
    }
    expect(answers).toEqual([...Array<number>(10).fill(401), 429, 429, 429, 429]);
  });

  it("the sign-in page: the 11th failure from the same socket is refused with 429", async () => {
    setRateLimitsEnabled(true);
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await call(
        authPage.action,
        makeRequest("/auth", {
          form: { intent: "login", username: `nobody${i}y`, password: "wrong-pass", redirectTo: "" },
          headers: attempt(i, "10.0.0.9"),
        }),
      );
      answers.push(res.status);
    }
    expect(answers.at(-1)).toBe(429);
    expect(answers.slice(0, 10).every((s) => s !== 429)).toBe(true);
  });
});
