/**
 * `npm run build`'s last step: brotli-11 and gzip-9 copies of every text asset they make smaller by 64 bytes or more in
 * the client build (`<file>.br`, `<file>.gz`), which the server sends to browsers that take them
 * (app/server/precompressed.server.ts, docs/decisions/0084-precompressed-assets.md).
 *
 *   npx tsx scripts/precompress.ts          (REMIX_BUILD_DIR is honoured, as in vite.config.ts)
 */
import { precompressDir } from "../app/server/precompressed.server";
import { ASSETS_DIR } from "./build-dirs";

const written = precompressDir(ASSETS_DIR);
const sum = (key: "raw" | "br" | "gzip") => written.reduce((n, w) => n + w[key], 0) / 1024;
console.log(
  `precompressed ${written.length} assets in ${ASSETS_DIR}: ${sum("raw").toFixed(1)} KB, brotli ${sum("br").toFixed(1)} KB, gzip ${sum("gzip").toFixed(1)} KB`,
);
