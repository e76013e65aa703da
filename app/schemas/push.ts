import * as z from "zod/mini";

/**
 * Web-push subscriptions (CONTRACT.md §7 "Web push"): the body of POST / DELETE
 * /api/push/subscriptions, shaped like the browser's `PushSubscription.toJSON()`. Browser-safe.
 * Whether the endpoint is https on a public address is the model's check (it needs DNS).
 */

export const PUSH_ENDPOINT_MAX = 2048;

const endpoint = z.string({ error: "Send the push endpoint" }).check(
  z.trim(),
  z.minLength(1, "Send the push endpoint"),
  z.maxLength(PUSH_ENDPOINT_MAX, `The push endpoint can be at most ${PUSH_ENDPOINT_MAX} characters`),
  z.refine((value) => URL.canParse(value), "The push endpoint must be a web address"),
);

/** An uncompressed P-256 public key (65 bytes) and a 16-byte secret, base64url with or without padding. */
const p256dh = z
  .string({ error: "Send the subscription's p256dh key" })
  .check(z.regex(/^[A-Za-z0-9_-]{87}=?$/, "The p256dh key must be a P-256 public key in base64url"));
const auth = z
  .string({ error: "Send the subscription's auth secret" })
  .check(z.regex(/^[A-Za-z0-9_-]{22}(?:==)?$/, "The auth secret must be 16 bytes in base64url"));

export const pushSubscriptionSchema = z.object({
  endpoint,
  keys: z.object({ p256dh, auth }, { error: "Send the subscription's keys" }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const pushEndpointSchema = z.object({ endpoint });
