/**
 * The schemas the page actions (and the auth loader's `safeRedirect`) import: through a `.server`
 * module, so a page's browser build leaves them out with the action. A page module importing
 * `~/schemas/auth` directly keeps that module (and zod) in its first load even when only the action
 * uses it: esbuild cannot tell the schemas have no side effects. The browser fetches its own copy
 * after hydration (`utils/browser-validation.ts`, docs/decisions/0044).
 */
export { forgotPasswordSchema, loginSchema, registerSchema, safeRedirect } from "./auth";
export { createClubSchema } from "./club";
export { passwordChangeSchema, passwordResetSchema, settingsProfileSchema } from "./profile";
