// REMIX_BUILD_DIR lets several checkouts' test runs build side by side (tmp/<name>/); the default is
// the usual build/ and public/build/.
const out = process.env.REMIX_BUILD_DIR;

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ...(out ? { serverBuildPath: `${out}/index.js`, assetsBuildDirectory: `${out}/public/build` } : {}),
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  tailwind: true,
  postcss: true,
  // Packages that ship ESM only must be bundled into the server build.
  serverDependenciesToBundle: [/^remix-auth/, /^@mjackson\//, /^@oslojs\//],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
