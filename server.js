// npm start: the site's own HTTP server (app/server/node-server.server.ts, ADR 0073) on a production
// build. `node server.js [path/to/server-build.js]`; the build defaults to build/server/index.js (Vite).
import path from "node:path";
import { pathToFileURL } from "node:url";

process.env.NODE_ENV = process.env.NODE_ENV ?? "production";
const buildPath = path.resolve(process.argv[2] ?? "build/server/index.js");
// The build parses the environment, opens and migrates the database and starts the jobs on import.
const build = await import(pathToFileURL(buildPath).href);
build.entry.module.startServer(build);
