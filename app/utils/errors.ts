/**
 * The one family of errors domain functions throw (ARCHITECTURE.md). Safe to import in the browser:
 * it carries no server code. `web/api.server.ts` turns them into JSON answers,
 * `web/page-errors.server.ts` into form errors, toasts or the ErrorBoundary.
 *
 * Callers tell errors apart by `status` and, where one status has several meanings a caller acts on
 * differently, by `code` (never by the message, which is for people and may change).
 */
export type FieldErrors = Record<string, string[]>;

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

/** Machine-readable reasons that a caller branches on. */
export type ErrorCode =
  | "already_member"
  | "request_pending"
  | "club_full"
  | "invite_used_up"
  | "invite_expired"
  | "removed_from_club"
  /** A member blocked the actor (403): a page keeps its form and says so, as for a fixable error. */
  | "blocked";

export class AppError extends Error {
  public readonly fieldErrors?: FieldErrors;
  public readonly retryAfter?: number;
  public readonly code?: ErrorCode;

  constructor(
    public readonly status: ErrorStatus,
    message: string,
    { fieldErrors, retryAfter, code }: { fieldErrors?: FieldErrors; retryAfter?: number; code?: ErrorCode } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.fieldErrors = fieldErrors;
    this.retryAfter = retryAfter;
    this.code = code;
  }
}

export const invalid = (fieldErrors: FieldErrors, message = "Please check the highlighted fields") =>
  new AppError(400, message, { fieldErrors });
export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = "You need to sign in to do that") => new AppError(401, message);
export const forbidden = (message = "You are not allowed to do that") => new AppError(403, message);
export const notFound = (message = "Not found") => new AppError(404, message);
export const conflict = (message: string, fieldErrors?: FieldErrors, code?: ErrorCode) => new AppError(409, message, { fieldErrors, code });
export const tooLarge = (message: string) => new AppError(413, message);
export const unsupportedMedia = (message: string) => new AppError(415, message);
export const tooMany = (retryAfter: number, message = "Too many attempts. Please wait and try again.") =>
  new AppError(429, message, { retryAfter });

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/**
 * A refusal ends the attempt (sign in first, not allowed, not there); anything else is fixable on the
 * form. A block (403, code "blocked") is not drawn as a page of its own: the page the member was on
 * stays, with what they typed and the reason beside it (ux-3 U3). JSON answers are the same 403.
 */
export const isRefusal = (error: unknown): boolean =>
  isAppError(error) && (error.status === 401 || error.status === 403 || error.status === 404) && error.code !== "blocked";
