import { describe, expect, it } from "vitest";
import { registerUser } from "~/models/members/user.server";

/** Registrations that race past the 'is it taken?' checks: the unique index decides (issue 25, isUniqueViolation). */
describe("registerUser under a race", () => {
  it("two registrations racing for one username: one account, the other a 409, not a 500", async () => {
    const input = (n: number) => ({
      username: "racer_reg",
      displayName: `Racer ${n}`,
      email: `racer${n}@example.com`,
      password: "secret123",
    });
    // Both pass the 'is it taken?' checks before either inserts (the password hash sits between them).
    const outcomes = await Promise.allSettled([registerUser(input(1)), registerUser(input(2))]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected");
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ status: 409, message: "Username or email already in use" });
  });
});
