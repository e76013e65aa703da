import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { forgotPasswordSchema, loginSchema, registerSchema } from "./auth";
import { CONSTRAINTS } from "./constraints";
import { accountDeletionSchema, passwordChangeSchema, passwordResetSchema, profileSchema, settingsProfileSchema } from "./profile";

const SCHEMAS = {
  login: loginSchema,
  register: registerSchema,
  forgotPassword: forgotPasswordSchema,
  passwordReset: passwordResetSchema,
  settingsProfile: settingsProfileSchema,
  passwordChange: passwordChangeSchema,
  profile: profileSchema,
  accountDeletion: accountDeletionSchema,
};

describe("the forms' written-out constraints", () => {
  it("names every form once", () => {
    expect(Object.keys(CONSTRAINTS).sort()).toEqual(Object.keys(SCHEMAS).sort());
  });

  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`${name}: equal to what getZodConstraint reads from the schema`, () => {
      expect(CONSTRAINTS[name as keyof typeof CONSTRAINTS]).toEqual(getZodConstraint(schema));
    });
  }
});
