import { describe, expect, it } from "vitest";
import { idParam, isScriptRequest, publicOrigin } from "./params.server";

const request = (headers: Record<string, string>, url = "http://127.0.0.1:3000/post/1") => new Request(url, { headers });

describe("publicOrigin", () => {
  it("takes the host from Host and never from X-Forwarded-Host, which any client can send", () => {
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Host": "evil.example" }))).toBe("http://pulse.example");
  });

  it("takes the scheme from the first X-Forwarded-Proto a TLS-terminating proxy sets", () => {
    // Setup: two trusted proxies (TRUST_PROXY=2), the outer one terminating TLS.
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "https, http" }), 2)).toBe("https://pulse.example");
  });

  it("ignores X-Forwarded-Proto unless TRUST_PROXY says a proxy set it, and then reads the proxy's entry", () => {
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "https" }))).toBe("http://pulse.example");
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "https" }), 1)).toBe("https://pulse.example");
    // A client's own value sits left of the one the proxy appends.
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "https, http" }), 1)).toBe("http://pulse.example");
  });

  it("keeps the port and normalises the host; a Host that is not a host falls back to the URL's", () => {
    expect(publicOrigin(request({ Host: "Pulse.Example:8443" }))).toBe("http://pulse.example:8443");
    expect(publicOrigin(request({ Host: "evil.example/x" }))).toBe("http://127.0.0.1:3000");
    expect(publicOrigin(request({ Host: "user@evil.example" }))).toBe("http://127.0.0.1:3000");
  });

  it("ignores a scheme that is not http or https", () => {
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "javascript" }), 1)).toBe("http://pulse.example");
  });
});

describe("idParam", () => {
  it("reads a positive integer id", () => {
    expect(idParam("42")).toBe(42);
  });

  it.each(["abc", "0", "1e3", "-1", "01", "12345678901234567", undefined])("answers 404 for %s", (value) => {
    expect(() => idParam(value, "Post Not Found")).toThrow(expect.objectContaining({ status: 404, message: "Post Not Found" }));
  });
});

describe("isScriptRequest", () => {
  it("tells a fetch from a form post or link by Sec-Fetch-Mode", () => {
    expect(isScriptRequest(request({ "Sec-Fetch-Mode": "cors" }))).toBe(true);
    expect(isScriptRequest(request({ "Sec-Fetch-Mode": "navigate" }))).toBe(false);
    expect(isScriptRequest(request({}))).toBe(false);
  });
});
