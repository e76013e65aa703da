import type { Config } from "@react-router/dev/config";
import { BUILD_DIR } from "./scripts/build-dirs";

/**
 * React Router's framework settings (docs/decisions/0082-react-router-7.md). Routes are in
 * app/routes.ts; the Vite settings (chunks, aliases, targets) in vite.config.ts.
 */
export default {
  appDirectory: "app",
  buildDirectory: BUILD_DIR,
  serverModuleFormat: "esm",
  ssr: true,
} satisfies Config;
