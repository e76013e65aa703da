import fs from "node:fs";
import path from "node:path";

/** The browser manifest React Router (as Remix before it) writes into the assets build directory (`manifest-<version>.js`). */
export type RemixManifest = {
  version: string;
  url: string;
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[]; parentId?: string }>;
};

/** Read the browser manifest of the build in `dir` (the assets build directory). */
export function readRemixManifest(dir: string): RemixManifest {
  const manifestFile = fs.readdirSync(dir).find((f) => f.startsWith("manifest-"));
  if (!manifestFile) throw new Error(`No manifest in ${dir}: run npm run build first`);
  const source = fs.readFileSync(path.join(dir, manifestFile), "utf8");
  return JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as RemixManifest;
}
