import { describe, expect, it } from "vitest";
import { users } from "#db/schema";
import { registerUser } from "~/models/user.server";
import { db, isUniqueViolation } from "./db.server";

/**
 * drizzle wraps a failed statement's driver error in its own ("Failed query: …", the driver's in
 * `cause`) on both engines: the unique-index check must look through it (issue 25).
 */
describe("isUniqueViolation", () => {
  const row = (name: string) => ({ username: name, displayName: "Dup", email: `${name}@example.com`, passwordHash: "x" });

  it("is true for a drizzle insert a unique index refuses, false for other failures", async () => {
    await db.insert(users).values(row("dupcheck"));
    const duplicate = await db.insert(users).values(row("dupcheck")).then(
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

  it("two registrations racing for one username: one account, the other a 409, not a 500", async () => {
    const input = (n: number) => ({ username: "racer_reg", displayName: `Racer ${n}`, email: `racer${n}@example.com`, password: "secret123" });
    // Both pass the 'is it taken?' checks before either inserts (the password hash sits between them).
    const outcomes = await Promise.allSettled([registerUser(input(1)), registerUser(input(2))]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected");
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ status: 409, message: "Username or email already in use" });
  });
});
