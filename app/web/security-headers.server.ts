import { createHash } from "node:crypto";
import { isProduction } from "~/utils/env.server";

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The CSP source of every inline script in a document: `'sha256-…'` of its text, as the browser
 * hashes it (the UTF-8 bytes between the tags). A hash names exactly that script, so the policy
 * holds however many readers one cached body reaches (docs/decisions/0032-validators-and-shared-
 * caching.md); a per-response nonce would be shared with all of them.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, text] of html.matchAll(INLINE_SCRIPT)) {
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(text ?? "", "utf8")
        .digest("base64")}'`,
    );
  }
  return [...hashes];
}

/**
 * Headers every HTML document carries (docs/decisions/0003-csrf-origin-check.md covers the CSP):
 * scripts from the site itself, and the inline scripts the document holds, named by their hashes.
 */
export function securityHeaders(scriptHashes: string[]): Record<string, string> {
  const csp = [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(" "),
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
