/**
 * The installed app's icons (the web app manifest, docs/decisions/0092-share-target.md), drawn from
 * the site's mark (public/favicon.svg: the antlers in blaze orange on bark brown) by sharp:
 *
 * - `icon-{192,512}.png`, purpose "any": the mark as the favicon draws it, its rounded square;
 * - `maskable-{192,512}.png`, purpose "maskable": bark brown to every edge, the antlers inside the
 *   centre circle of 80 % that every launcher's mask keeps (the W3C manifest's safe zone).
 *
 *   npx tsx scripts/make-icons.ts      (writes public/icons/; the PNGs are committed)
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const OUT = path.join("public", "icons");
const SIZES = [192, 512] as const;
const mark = fs.readFileSync(path.join("public", "favicon.svg"), "utf8");
const BARK = "#2a1f14";

/** The antlers' path of the mark, without its rounded square. */
const antlers = mark.match(/<path[^>]*\/>/)?.[0];
if (!antlers) throw new Error("public/favicon.svg has no <path> for the antlers");

/** A maskable icon: a full square of bark brown, the antlers scaled to 60 % around its centre (inside the 80 % circle). */
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BARK}"/><g transform="translate(16 16) scale(0.6) translate(-16 -16)">${antlers}</g></svg>`;

fs.mkdirSync(OUT, { recursive: true });
for (const size of SIZES) {
  await sharp(Buffer.from(mark), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(OUT, `icon-${size}.png`));
  await sharp(Buffer.from(maskable), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(OUT, `maskable-${size}.png`));
}
console.log(`wrote ${SIZES.length * 2} icons to ${OUT}/`);
