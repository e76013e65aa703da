import { describe, expect, it } from "vitest";
import { insertMention, mentionAt, mentionMatches } from "./mention-typing";
import { mentionedUsernames } from "./mentions";

/** The caret is where `|` is in the text. */
const at = (marked: string) => mentionAt(marked.replace("|", ""), marked.indexOf("|"));

/** Picks `username` for the mention typed at `|`; the result with `|` at the caret. */
function pick(marked: string, username: string) {
  const text = marked.replace("|", "");
  const typed = mentionAt(text, marked.indexOf("|"));
  if (!typed) throw new Error(`no mention typed in ${marked}`);
  const done = insertMention(text, typed, username);
  return `${done.text.slice(0, done.caret)}|${done.text.slice(done.caret)}`;
}

describe("mentionAt: the mention being typed at the caret", () => {
  it("finds `@` and what follows it up to the caret, at the start, after a space or a line, and with nothing typed yet", () => {
    expect(at("@dan|")).toEqual({ start: 0, end: 4, query: "dan" });
    expect(at("Nice buck @Dan|")).toEqual({ start: 10, end: 14, query: "Dan" });
    expect(at("Nice buck\n@|")).toEqual({ start: 10, end: 11, query: "" });
    expect(at("(@doe_t|")).toEqual({ start: 1, end: 7, query: "doe_t" });
    expect(at("@José|")).toEqual({ start: 0, end: 5, query: "José" });
  });

  it("takes the whole word when the caret is inside it", () => {
    expect(at("hey @da|ni, look")).toEqual({ start: 4, end: 9, query: "da" });
  });

  it("finds nothing in an address, a path, a word, after the mention has ended, or past 30 characters", () => {
    expect(at("mail carol@exa|")).toBeNull();
    expect(at("example.com/@bo|")).toBeNull();
    expect(at("@@bo|")).toBeNull();
    expect(at("@dan |")).toBeNull();
    expect(at("@dan, |")).toBeNull();
    expect(at("no mention|")).toBeNull();
    expect(at(`@${"a".repeat(31)}|`)).toBeNull();
    expect(at(`@${"a".repeat(30)}|`)).not.toBeNull();
    expect(at("|@dan")).toBeNull();
  });
});

describe("insertMention: `@username ` in place of the partial word", () => {
  it("replaces what was typed and puts the caret after the added space", () => {
    expect(pick("@dan|", "scrapeline")).toBe("@scrapeline |");
    expect(pick("Great one @Ma|", "doe_talker")).toBe("Great one @doe_talker |");
    expect(pick("first\n@|", "ridgerunner")).toBe("first\n@ridgerunner |");
  });

  it("replaces the rest of the word after the caret too, and keeps what follows", () => {
    expect(pick("hey @da|ni look", "scrapeline")).toBe("hey @scrapeline |look");
    expect(pick("hey @da|ni, look", "scrapeline")).toBe("hey @scrapeline |, look");
  });

  it("adds no second space when one follows already", () => {
    expect(pick("hey @da| look", "scrapeline")).toBe("hey @scrapeline |look");
    expect(pick("hey @da|\nnext", "scrapeline")).toBe("hey @scrapeline\n|next");
  });

  it("leaves a mention the server reads as one", () => {
    const typed = mentionAt("Nice @dan", 9)!;
    expect(mentionedUsernames(insertMention("Nice @dan", typed, "scrapeline").text)).toEqual(["scrapeline"]);
  });
});

describe("mentionMatches: the server's rule, for the people already on the page", () => {
  const dani = { username: "scrapeline", displayName: "Dani Ortiz", avatar: null };
  it("matches a username's start or any display-name word's start, in any case", () => {
    expect(mentionMatches(dani, "scr")).toBe(true);
    expect(mentionMatches(dani, "DAN")).toBe(true);
    expect(mentionMatches(dani, "ort")).toBe(true);
    expect(mentionMatches(dani, "")).toBe(true);
    expect(mentionMatches(dani, "line")).toBe(false);
    expect(mentionMatches(dani, "tiz")).toBe(false);
    expect(mentionMatches(dani, "dor")).toBe(false);
  });
});
