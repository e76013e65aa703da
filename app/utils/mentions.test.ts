import { describe, expect, it } from "vitest";
import { MAX_MENTIONS, mentionedUsernames } from "./mentions";
import { mentionsIn } from "./text-links";

describe("mentionedUsernames (CONTRACT.md §7, issue 26)", () => {
  it("finds @usernames in order, lower case, each once whatever its case", () => {
    expect(mentionedUsernames("Thanks @Buck_Hunter and @doe99! @buck_hunter, @BUCK_HUNTER")).toEqual(["buck_hunter", "doe99"]);
  });

  it("does not take email addresses, paths, URLs or a name inside a word", () => {
    expect(mentionedUsernames("mail carol@example.com or bob_s@mail.org")).toEqual([]);
    expect(mentionedUsernames("https://social.example/@bob_s and example.com/@alice")).toEqual([]);
    expect(mentionedUsernames("word@alice x.@alice @@alice")).toEqual([]);
  });

  it("ends a mention at punctuation, and takes none that is too short or too long for a username", () => {
    expect(mentionedUsernames("(@alice), @bob. @carol's @dave: @eve_1! @frank? @gina-ok")).toEqual([
      "alice",
      "bob",
      "carol",
      "dave",
      "eve_1",
      "frank",
      "gina",
    ]);
    expect(mentionedUsernames("@jo and @abcdefghijklmnopqrstu (21)")).toEqual([]);
    expect(mentionedUsernames("@abcdefghijklmnopqrst (20)")).toEqual(["abcdefghijklmnopqrst"]);
  });

  it("a dot is not part of a username: @john.smith mentions john", () => {
    expect(mentionedUsernames("ask @john.smith")).toEqual(["john"]);
  });

  it("takes only the username's characters out of markup and injection attempts", () => {
    expect(mentionedUsernames("@<script>alert(1)</script>")).toEqual([]);
    expect(mentionedUsernames('@abc"onmouseover=alert(1)')).toEqual(["abc"]);
    expect(mentionedUsernames("@abc<img src=x onerror=alert(1)>")).toEqual(["abc"]);
    expect(mentionedUsernames("@abc/../../admin @abc?x=1 @abc#frag")).toEqual(["abc"]);
    for (const name of mentionedUsernames('@a"b @x<y> @abc\u0000def @ab\u200bcd')) expect(name).toMatch(/^[a-z0-9_]{3,20}$/);
  });

  it("keeps the first 10 distinct names; repeats do not use up the 10", () => {
    const names = Array.from({ length: 15 }, (_, i) => `member_${i}`);
    expect(MAX_MENTIONS).toBe(10);
    expect(mentionedUsernames(names.map((n) => `@${n} @${n.toUpperCase()}`).join(" "))).toEqual(names.slice(0, 10));
    expect(mentionedUsernames(names.map((n) => `@${n}`).join(" "), 3)).toEqual(names.slice(0, 3));
  });

  it("is empty for no text", () => {
    expect(mentionedUsernames("")).toEqual([]);
    expect(mentionedUsernames(null)).toEqual([]);
    expect(mentionedUsernames(undefined)).toEqual([]);
  });

  it("the first-day cap counts with the same rule, every mention across the texts", () => {
    const many = Array.from({ length: 12 }, (_, i) => `@member_${i}`).join(" ");
    expect(mentionsIn(many, "@Member_0 carol@example.com example.com/@zed").size).toBe(12);
  });
});
