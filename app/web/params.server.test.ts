import { describe, expect, it } from "vitest";
import { idParam, isScriptRequest, publicOrigin } from "./params.server";

const request = (headers: Record<string, string>, url = "http://127.0.0.1:3000/post/1") => new Request(url, { headers });

describe("publicOrigin", () => {
  it("takes the host from Host and never from X-Forwarded-Host, which any client can send", () => {
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Host": "evil.example" }))).toBe("http://pulse.example");
  });

  it("takes the scheme from the first X-Forwarded-Proto a TLS-terminating proxy sets", () => {
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "https, http" }))).toBe("https://pulse.example");
  });

  it("ignores a scheme that is not http or https", () => {
    expect(publicOrigin(request({ Host: "pulse.example", "X-Forwarded-Proto": "javascript" }))).toBe("http://pulse.example");
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
