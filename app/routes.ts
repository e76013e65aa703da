import type { RouteConfig } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";
import { CLUB_ROUTES_FOLDER, clubRoutes } from "./routes/clubs.$id/club-routes";

/**
 * The site's routes (React Router's route config, docs/decisions/0082-react-router-7.md): every file
 * under routes/ by the flat-routes convention Remix used, and the club's pages, which name their
 * routes themselves (routes/clubs.$id/club-routes.ts) and so are left out of the convention.
 */
export default [
  ...(await flatRoutes({ ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", `${CLUB_ROUTES_FOLDER}/**`] })),
  ...clubRoutes,
] satisfies RouteConfig;
