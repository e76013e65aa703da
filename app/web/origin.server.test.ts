import { describe, expect, it } from "vitest";
import { isCrossSite } from "./origin.server";

const req = (method: string, headers: Record<string, string>) =>
  new Request("http://localhost:3000/x", { method, headers: { Host: "localhost:3000", ...headers } });

describe("isCrossSite", () => {
  it("lets reads through whatever their origin", () => {
    expect(isCrossSite(req("GET", { Origin: "https://evil.example" }))).toBe(false);
  });
  it("refuses a post from another origin, by Origin or by Referer", () => {
    expect(isCrossSite(req("POST", { Origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSite(req("DELETE", { Referer: "https://evil.example/page" }))).toBe(true);
    expect(isCrossSite(req("POST", { Origin: "null" }))).toBe(true);
    expect(isCrossSite(req("POST", { Origin: "http://localhost:3001" }))).toBe(true);
  });
  it("accepts same-origin posts, also behind a TLS-terminating proxy", () => {
    expect(isCrossSite(req("POST", { Origin: "http://localhost:3000" }))).toBe(false);
    expect(isCrossSite(req("POST", { Referer: "http://localhost:3000/auth" }))).toBe(false);
    // Setup: the proxy (TRUST_PROXY=1) says the visitor came over https.
    expect(isCrossSite(req("PUT", { Origin: "https://localhost:3000", "X-Forwarded-Proto": "https" }), 1)).toBe(false);
  });
  it("compares scheme, host and port, not the host alone", () => {
    expect(isCrossSite(req("POST", { Origin: "https://localhost:3000" }))).toBe(true);
    expect(isCrossSite(req("POST", { Origin: "http://localhost" }))).toBe(true);
    expect(isCrossSite(req("POST", { Origin: "http://LOCALHOST:3000" }))).toBe(false);
  });
  it("takes the scheme from X-Forwarded-Proto only behind a trusted proxy", () => {
    expect(isCrossSite(req("POST", { Origin: "https://localhost:3000", "X-Forwarded-Proto": "https" }))).toBe(true);
    expect(isCrossSite(req("POST", { Origin: "https://localhost:3000", "X-Forwarded-Proto": "https" }), 0)).toBe(true);
    expect(isCrossSite(req("POST", { Origin: "http://localhost:3000", "X-Forwarded-Proto": "https" }), 1)).toBe(true);
  });
  it("judges the site's host by Host alone: a forged X-Forwarded-Host does not make another origin ours", () => {
    expect(isCrossSite(req("POST", { Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" }))).toBe(true);
  });
  it("accepts requests that carry neither header (not a browser's cross-site request)", () => {
    expect(isCrossSite(req("POST", {}))).toBe(false);
  });
});
