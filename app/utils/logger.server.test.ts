import { describe, expect, it } from "vitest";
import { captureLog } from "#tests/fixtures/log";
import { logServerError, noteMember, requestNotes, type RequestNotes } from "./logger.server";

describe("logger", () => {
  it("writes one JSON line per server error, with its message and stack", () => {
    const log = captureLog();
    try {
      logServerError(new Error("disk on fire"), { method: "POST", path: "/create" });
      expect(log.lines).toHaveLength(1);
      const [line] = log.lines;
      expect(line).toMatchObject({ level: 50, msg: "server error", method: "POST", path: "/create" });
      expect((line!.err as { message: string; stack: string }).message).toBe("disk on fire");
      expect((line!.err as { stack: string }).stack).toMatch(/disk on fire\n\s+at /);
    } finally {
      log.restore();
    }
  });

  it("never prints a cookie, password or email that an error object carries", () => {
    const log = captureLog();
    try {
      const err = Object.assign(new Error("bad"), { password: "hunter22", email: "a@b.example", cookie: "__session=abc" });
      logServerError(err);
      expect(log.raw.join("\n")).not.toMatch(/hunter22|a@b\.example|__session=abc/);
    } finally {
      log.restore();
    }
  });

  it("records the member a request is for, only inside that request's notes", () => {
    const notes: RequestNotes = {};
    requestNotes.run(notes, () => noteMember(42));
    expect(notes.memberId).toBe(42);
    expect(() => noteMember(7)).not.toThrow(); // outside a request: nothing to note
  });
});
