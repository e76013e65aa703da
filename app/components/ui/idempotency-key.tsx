import { IDEMPOTENCY_FIELD, useIdempotencyKey } from "~/utils/idempotency";

/**
 * The hidden idempotency key of a form that creates something (CONTRACT.md §6): a resend of the
 * same submission carries the same key, so the server answers it as the first send.
 */
export function IdempotencyKeyInput() {
  const key = useIdempotencyKey();
  return <input type="hidden" name={IDEMPOTENCY_FIELD} value={key} />;
}
