import { describe, expect, it } from "vitest";
import {
  clearDrafts,
  closeDrafts,
  DRAFT_MAX_AGE_MS,
  draftStorageKey,
  isBlank,
  loadDraft,
  removeDraft,
  reopenDrafts,
  sameValues,
  saveDraft,
} from "./drafts";

/** A Storage over a Map, as localStorage behaves (keys in insertion order). */
function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    get length() {
      return map.size;
    },
    key: (i: number) => Array.from(map.keys())[i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

const T0 = Date.UTC(2026, 10, 23, 12);

describe("drafts", () => {
  it("keeps a member's draft of a form and gives it back with its time", () => {
    const storage = memoryStorage();
    saveDraft(storage, 7, "post-create", { title: ["Rut report"], tags: ["rut", "scrapes"] }, T0);
    expect(loadDraft(storage, 7, "post-create", T0 + 1000)).toEqual({
      values: { title: ["Rut report"], tags: ["rut", "scrapes"] },
      savedAt: T0,
    });
  });

  it("keys by member and form: another member, or another target, sees nothing", () => {
    const storage = memoryStorage();
    saveDraft(storage, 7, "comment:3", { content: ["Nice buck"] }, T0);
    expect(loadDraft(storage, 8, "comment:3", T0)).toBeNull();
    expect(loadDraft(storage, 7, "comment:4", T0)).toBeNull();
    expect(storage.map.has(draftStorageKey(7, "comment:3"))).toBe(true);
  });

  it("removes a blank draft instead of keeping it", () => {
    const storage = memoryStorage();
    saveDraft(storage, 7, "comment:3", { content: ["Nice"] }, T0);
    saveDraft(storage, 7, "comment:3", { content: ["  "] }, T0);
    expect(storage.map.size).toBe(0);
  });

  it("drops a draft older than the maximum age, and unreadable entries", () => {
    const storage = memoryStorage({ [draftStorageKey(7, "broken")]: "{not json" });
    saveDraft(storage, 7, "post-create", { title: ["Old"] }, T0);
    expect(loadDraft(storage, 7, "post-create", T0 + DRAFT_MAX_AGE_MS + 1)).toBeNull();
    expect(loadDraft(storage, 7, "broken", T0)).toBeNull();
    expect(storage.map.size).toBe(0);
  });

  it("removeDraft removes one draft", () => {
    const storage = memoryStorage();
    saveDraft(storage, 7, "a", { x: ["1"] }, T0);
    saveDraft(storage, 7, "b", { x: ["2"] }, T0);
    removeDraft(storage, 7, "a");
    expect(Array.from(storage.map.keys())).toEqual([draftStorageKey(7, "b")]);
  });

  it("clearDrafts removes every draft (logout) and leaves other keys alone", () => {
    const storage = memoryStorage({ theme: "dark" });
    saveDraft(storage, 7, "a", { x: ["1"] }, T0);
    saveDraft(storage, 8, "a", { x: ["2"] }, T0);
    clearDrafts(storage, { now: T0 });
    expect(Array.from(storage.map.keys())).toEqual(["theme"]);
  });

  it("clearDrafts with keepMember removes other members' drafts and expired ones of the member", () => {
    const storage = memoryStorage();
    saveDraft(storage, 7, "old", { x: ["1"] }, T0 - DRAFT_MAX_AGE_MS - 1);
    saveDraft(storage, 7, "new", { x: ["2"] }, T0);
    saveDraft(storage, 8, "new", { x: ["3"] }, T0);
    saveDraft(storage, 70, "new", { x: ["4"] }, T0);
    clearDrafts(storage, { keepMember: 7, now: T0 });
    expect(Array.from(storage.map.keys())).toEqual([draftStorageKey(7, "new")]);
  });

  it("logout closes drafts: all are removed and a save still pending writes nothing until a form reopens them", () => {
    const storage = memoryStorage();
    saveDraft(storage, 7, "post-create", { title: ["Private thoughts"] }, T0);
    closeDrafts(storage);
    saveDraft(storage, 7, "post-create", { title: ["Private thoughts"] }, T0 + 400);
    expect(storage.map.size).toBe(0);
    reopenDrafts();
    saveDraft(storage, 8, "post-create", { title: ["Next hunter"] }, T0 + 1000);
    expect(loadDraft(storage, 8, "post-create", T0 + 1000)?.values).toEqual({ title: ["Next hunter"] });
  });

  it("logout also forgets unfinished uploads, which name the member's files", () => {
    const storage = memoryStorage({ "tus::tus-br-deer.jpg-image/jpeg-8388608-1700000000000::http://x/api/uploads": "{}", other: "kept" });
    closeDrafts(storage);
    reopenDrafts();
    expect([...storage.map.keys()]).toEqual(["other"]);
  });

  it("never throws when storage refuses (private mode, quota)", () => {
    const refusing = {
      length: 1,
      key: () => {
        throw new Error("denied");
      },
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    };
    expect(() => saveDraft(refusing, 7, "a", { x: ["1"] })).not.toThrow();
    expect(loadDraft(refusing, 7, "a")).toBeNull();
    expect(() => clearDrafts(refusing)).not.toThrow();
  });

  it("isBlank and sameValues compare what was typed", () => {
    expect(isBlank({ a: [], b: [" "] })).toBe(true);
    expect(isBlank({ a: ["x"] })).toBe(false);
    expect(sameValues({ a: ["1"], b: [] }, { a: ["1"] })).toBe(true);
    expect(sameValues({ a: ["1", "2"] }, { a: ["2", "1"] })).toBe(false);
  });
});
