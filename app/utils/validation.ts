import type { $ZodError } from "zod/v4/core";
import type { FieldErrors } from "./errors";

/** zod's issues as `{ field: [message] }` (CONTRACT.md §2's fieldErrors). */
export function zodFieldErrors(error: $ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "form";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}
