import { describe, expect, it } from "vitest";
import { isJsonContentType } from "./api.server";

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
