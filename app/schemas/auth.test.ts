import { describe, expect, it } from "vitest";
import { safeRedirect } from "./auth";

describe("safeRedirect", () => {
  it.each([
    "/",
    "/post/12",
    "/post/12#comments",
    "/clubs/2?tab=invites",
    "/?search=elk%20hunt&type=photo",
    "/profile/ridgerunner?edit=1",
    "/settings?tab=profile",
  ])("keeps the path on this site %j", (value) => {
    expect(safeRedirect(value)).toBe(value);
  });

  it.each([
    ["tab after the slash (M1)", "/\t/evil.example"],
    ["newline after the slash", "/\n/evil.example"],
    ["CR after the slash", "/\r/evil.example"],
    ["CR LF header injection", "/x\r\nSet-Cookie: a=b"],
    ["vertical tab", "/\v/evil.example"],
    ["NUL", "/\u0000/evil.example"],
    ["tab inside the path", "/post/1\t"],
    ["ideographic space U+3000", "/\u3000/evil.example"],
    ["no-break space", "/\u00a0/evil.example"],
    ["line separator U+2028", "/\u2028/evil.example"],
    ["a space", "/ /evil.example"],
    ["protocol-relative", "//evil.example"],
    ["protocol-relative with a path", "//evil.example/phish"],
    ["slash backslash", "/\\evil.example"],
    ["backslash slash", "\\/evil.example"],
    ["backslash later", "/a\\..\\..\\evil.example"],
    ["triple slash", "///evil.example"],
    ["https scheme", "https://evil.example"],
    ["javascript scheme", "javascript:alert(1)"],
    ["data scheme", "data:text/html,hi"],
    ["scheme-less host", "evil.example"],
    ["relative path", "post/1"],
    ["encoded slash after the slash", "/%2F/evil.example"],
    ["encoded slashes", "/%2f%2fevil.example"],
    ["encoded backslash", "/%5Cevil.example"],
    ["encoded tab", "/%09/evil.example"],
    ["encoded newline", "/%0A/evil.example"],
    ["broken percent-encoding", "/%E0%A4%A"],
    ["non-ASCII letters", "/caf\u00e9"],
    ["empty", ""],
    ["too long", `/${"a".repeat(3000)}`],
  ])("sends %s to the fallback", (_label, value) => {
    expect(safeRedirect(value)).toBe("/");
    expect(safeRedirect(value, "/settings")).toBe("/settings");
  });

  it("gives the fallback for what is not text", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "")).toBe("");
    expect(safeRedirect(new File(["/x"], "x.txt"), "/home")).toBe("/home");
  });
});
