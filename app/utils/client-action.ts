// Moved to app/offline/client-action.ts; this path stays for app/routes until the framework move updates their imports.
export * from "~/offline/client-action";
