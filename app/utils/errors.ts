/**
 * The one family of errors domain functions throw (ARCHITECTURE.md). Safe to import in the browser:
 * it carries no server code. `api.server.ts` turns them into JSON answers, `page.server.ts` into form
 * errors, toasts or the ErrorBoundary.
 */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    public readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429,
    message: string,
    public readonly fieldErrors?: FieldErrors,
    public readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const invalid = (fieldErrors: FieldErrors, message = "Please check the highlighted fields") =>
  new AppError(400, message, fieldErrors);
export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = "You need to sign in to do that") => new AppError(401, message);
export const forbidden = (message = "You are not allowed to do that") => new AppError(403, message);
export const notFound = (message = "Not found") => new AppError(404, message);
export const conflict = (message: string, fieldErrors?: FieldErrors) => new AppError(409, message, fieldErrors);
export const tooLarge = (message: string) => new AppError(413, message);
export const unsupportedMedia = (message: string) => new AppError(415, message);
export const tooMany = (retryAfter: number, message = "Too many attempts. Please wait and try again.") =>
  new AppError(429, message, undefined, retryAfter);

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
