import nodemailer from "nodemailer";
import { env } from "./env.server";

/**
 * Outgoing mail (docs/decisions/0028-password-reset.md). Only where the operator configured SMTP
 * (`SMTP_URL`, `MAIL_FROM`, and `PUBLIC_URL` for the links); otherwise `mailSettings()` is null and
 * callers tell the member to ask the site's operator instead.
 */
export type MailSettings = { smtpUrl: string; from: string; publicUrl: string };
/**
 * `headers`: extra header lines, e.g. a notification mail's `List-Unsubscribe` (RFC 8058).
 * `messageId`: a stable Message-ID (`<…@host>`), so a mail sent again after a crash between the send
 * and its mark is the same message to the receiving side (ADR 0069).
 */
export type Mail = { to: string; subject: string; text: string; html: string; headers?: Record<string, string>; messageId?: string };

let settings: MailSettings | null =
  env.SMTP_URL && env.MAIL_FROM && env.PUBLIC_URL ? { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, publicUrl: env.PUBLIC_URL } : null;
let transport: nodemailer.Transporter | null = null;

export function mailSettings(): MailSettings | null {
  return settings;
}

/** For tests that send through a local SMTP sink (the rest of the suite runs without mail). */
export function setMailSettings(value: MailSettings | null) {
  settings = value;
  transport?.close();
  transport = null;
}

/** Sends one message; throws when mail is not configured or the server refuses it. */
export async function sendMail(mail: Mail): Promise<void> {
  if (!settings) throw new Error("Mail is not configured (SMTP_URL)");
  // A mail server that hangs gives up within seconds, not minutes.
  transport ??= nodemailer.createTransport({
    url: settings.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  await transport.sendMail({ ...mail, from: settings.from });
}

/** Text for an HTML body: `&`, `<`, `>`, `"` escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}
