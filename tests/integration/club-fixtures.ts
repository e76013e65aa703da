import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { clubs } from "#db/schema";
import { createClub } from "~/models/club.server";
import { createClubSchema } from "~/schemas/club";
import { db } from "~/utils/db.server";
import { createMember } from "./helpers";

export type Member = Awaited<ReturnType<typeof createMember>>;

/** A club created through the domain function, as its owner would. */
export const newClub = (owner: { id: number }, overrides: Record<string, unknown> = {}) =>
  createClub(owner, createClubSchema.parse({ name: "Creek Bottom Lease", description: "Bowhunters of the creek bottom", ...overrides }));

export const memberCount = (clubId: number) => db.select({ n: clubs.memberCount }).from(clubs).where(eq(clubs.id, clubId)).get()?.n;

/** Expect `fn` to throw the error family's error with this status (and message, if given). */
export function expectError(fn: () => unknown, status: number, message?: string) {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected an error").toBeDefined();
  expect((caught as { status?: number }).status).toBe(status);
  if (message) expect((caught as Error).message).toBe(message);
}
