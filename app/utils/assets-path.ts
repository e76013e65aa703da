/**
 * The address the build's hashed files are served under (Vite's `assetsDir` at the site's root;
 * vite.config.ts): scripts, styles and the route manifest. Their names carry their hash, so they are
 * cached for a year, and the service worker keeps what a page loaded from here.
 */
export const ASSETS_PATH = "/assets/";
