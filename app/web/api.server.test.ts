import { describe, expect, it } from "vitest";
import { isJsonContentType } from "./api.server";
import { asResponse, jsonResponse } from "./json-response.server";

describe("isJsonContentType", () => {
  it.each(["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8", 'application/json; charset="utf-8"'])(
    "accepts %j",
    (type) => {
      expect(isJsonContentType(type)).toBe(true);
    },
  );

  it.each([
    "text/plain; application/json",
    "text/plain;charset=application/json",
    "application/x-www-form-urlencoded; x=application/json",
    "multipart/form-data; boundary=application/json",
    "application/json-patch+json",
    "application/jsonx",
    "application/json; charset=latin1",
    "application/json; boundary=x",
    "text/plain",
    "",
    null,
  ])("refuses %j", (type) => {
    expect(isJsonContentType(type)).toBe(false);
  });
});

describe("jsonResponse", () => {
  it("answers what Remix's json() did: the body as JSON, UTF-8 named, status and headers kept", async () => {
    const answer = jsonResponse({ error: "No" }, { status: 405, headers: { Allow: "POST" } });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(answer.headers.get("Allow")).toBe("POST");
    expect(await answer.text()).toBe('{"error":"No"}');
  });

  it("reads a data() answer or a bare value as the JSON answer it stands for", async () => {
    const fromData = asResponse({
      type: "DataWithResponseInit",
      data: { ok: false },
      init: { status: 400, headers: { "Retry-After": "3" } },
    });
    expect([fromData.status, fromData.headers.get("Retry-After"), await fromData.text()]).toEqual([400, "3", '{"ok":false}']);
    const bare = asResponse({ at: new Date(0) });
    expect([bare.status, bare.headers.get("Content-Type"), await bare.text()]).toEqual([
      200,
      "application/json; charset=utf-8",
      '{"at":"1970-01-01T00:00:00.000Z"}',
    ]);
  });

  it("keeps a Content-Type the caller names", () => {
    expect(jsonResponse([], { headers: { "Content-Type": "application/problem+json" } }).headers.get("Content-Type")).toBe(
      "application/problem+json",
    );
  });
});
