import { describe, expect, it } from "vitest";
import { users } from "#db/schema";
import { db, isUniqueViolation } from "./db.server";

/**
 * drizzle wraps a failed statement's driver error in its own ("Failed query: …", the driver's in
 * `cause`) on both engines: the unique-index check must look through it (issue 25).
 */
describe("isUniqueViolation", () => {
  const row = (name: string) => ({ username: name, displayName: "Dup", email: `${name}@example.com`, passwordHash: "x" });

  it("is true for a drizzle insert a unique index refuses, false for other failures", async () => {
    await db.insert(users).values(row("dupcheck"));
    const duplicate = await db
      .insert(users)
      .values(row("dupcheck"))
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(duplicate).toBeInstanceOf(Error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    // A NOT NULL column left empty is a failure of another kind.
    const notNull = await db
      .insert(users)
      .values({ ...row("nonull"), displayName: null as unknown as string })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(notNull).toBeInstanceOf(Error);
    expect(isUniqueViolation(notNull)).toBe(false);
    expect(isUniqueViolation(new Error("something else"))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});
