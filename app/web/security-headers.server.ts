import { isProduction } from "~/utils/env.server";

/** Headers every HTML document carries (docs/decisions/0003-csrf-origin-check.md covers the CSP). */
export function securityHeaders(nonce: string): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Radix positions dialogs with inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    // Link-preview images and avatars may live on other sites; media on the S3 public URL.
    "img-src 'self' https: data: blob:",
    "media-src 'self' https: blob:",
    `connect-src 'self'${isProduction ? "" : " ws://localhost:* ws://127.0.0.1:*"}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "worker-src 'self'",
    "manifest-src 'self'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
  };
}
