import { describe, expect, it } from "vitest";
import { edgeHeaders, edgeRefusal } from "./http-edge.server";

const req = (method: string, url: string, headers: Record<string, string> = {}) => ({
  method,
  url,
  headers: { host: "localhost:3000", ...headers },
});

describe("edgeRefusal", () => {
  it("lets ordinary requests through", () => {
    expect(edgeRefusal(req("GET", "/api/posts?search=%ZZ"))).toBeNull();
    expect(edgeRefusal(req("POST", "/api/posts", { origin: "http://localhost:3000" }))).toBeNull();
    expect(edgeRefusal(req("GET", "/post/%E0%A4%A"))).toBeNull();
  });

  it("answers 400 for broken percent-encoding in an /api path", () => {
    expect(edgeRefusal(req("GET", "/api/users/%E0%A4%A"))).toMatchObject({ status: 400 });
    expect(edgeRefusal(req("DELETE", "/api/posts/%FF", { origin: "http://localhost:3000" }))).toMatchObject({ status: 400 });
  });

  it("answers 400 for a Host that is not a host name, instead of throwing", () => {
    for (const host of ["a b", "a^b", "evil.example/x", "user@evil.example", ""]) {
      expect(edgeRefusal(req("GET", "/", { host }))).toMatchObject({ status: 400 });
    }
    expect(edgeRefusal({ method: "GET", url: "/", headers: {} })).toMatchObject({ status: 400 });
  });

  it("refuses a cross-site post (scheme, host and port compared)", () => {
    expect(edgeRefusal(req("POST", "/auth", { origin: "https://evil.example" }))).toMatchObject({ status: 403 });
    expect(edgeRefusal(req("POST", "/auth", { origin: "https://localhost:3000" }))).toMatchObject({ status: 403 });
    expect(edgeRefusal(req("POST", "/auth", { origin: "https://evil.example", "x-forwarded-host": "evil.example" }))).toMatchObject({
      status: 403,
    });
  });
});

describe("edgeHeaders", () => {
  it("marks the JSON surface nosniff and adds HSTS in production only", () => {
    expect(edgeHeaders("/api/posts", false)).toEqual({ "X-Content-Type-Options": "nosniff" });
    expect(edgeHeaders("/api", true)).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Strict-Transport-Security": "max-age=31536000",
    });
    expect(edgeHeaders("/settings", false)).toEqual({});
    expect(edgeHeaders("/apis", true)).toEqual({ "Strict-Transport-Security": "max-age=31536000" });
  });
});
