/**
 * Makes the demo clubs' pictures (issue 14, beyond SPEC #18): small landscape-like WebP files under
 * public/demo/, committed, so `db/seed-demo.ts` can point each club's imageUrl at a file the server
 * already serves (no upload, no storage, works with S3 too). Run again after changing a scene:
 * `npx tsx db/demo-images.ts`.
 */
import path from "node:path";
import sharp from "sharp";

const W = 640;
const H = 320;

/** A row of pine silhouettes along a ground line. */
function pines(baseY: number, count: number, height: number, fill: string, seed: number): string {
  let out = "";
  for (let i = 0; i < count; i++) {
    const x = (i + 0.5) * (W / count) + ((i * seed) % 13) - 6;
    const h = height * (0.7 + (((i * 7 + seed) % 10) / 10) * 0.5);
    out += `<polygon points="${x - h / 4},${baseY} ${x},${baseY - h} ${x + h / 4},${baseY}" fill="${fill}"/>`;
  }
  return out;
}

/** Public path (under public/) → SVG scene. */
export const DEMO_CLUB_IMAGES: Record<string, string> = {
  // Big Woods: a dusk sky over two ridges of pines.
  "/demo/big-woods.webp": `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#2b3a55"/><stop offset="0.55" stop-color="#d9774b"/><stop offset="1" stop-color="#f2c57c"/>
    </linearGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#sky)"/>
    <circle cx="470" cy="190" r="34" fill="#fbe3a1" opacity="0.9"/>
    <path d="M0 230 Q160 190 320 220 T640 205 V320 H0Z" fill="#3d4a3a"/>
    ${pines(240, 22, 90, "#2a3527", 3)}
    <rect y="262" width="${W}" height="58" fill="#1c241b"/>
    ${pines(280, 16, 120, "#141a13", 5)}
  </svg>`,
  // Creek Bottom: a morning sky, a bean field edge and a creek winding through the bottom.
  "/demo/creek-bottom.webp": `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#8fb8d8"/><stop offset="1" stop-color="#e8eef0"/>
    </linearGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#sky)"/>
    <path d="M0 170 Q120 140 260 165 T640 150 V320 H0Z" fill="#6f8f4e"/>
    ${pines(175, 30, 45, "#44603a", 7)}
    <path d="M0 215 Q200 190 400 210 T640 200 V320 H0Z" fill="#b59a5b"/>
    <path d="M-10 320 C120 280 160 250 300 250 S520 236 650 228 L650 246 C520 256 420 268 320 272 S150 300 60 330Z" fill="#5f86a3"/>
  </svg>`,
};

async function main() {
  for (const [file, svg] of Object.entries(DEMO_CLUB_IMAGES)) {
    const out = path.join("public", file);
    const info = await sharp(Buffer.from(svg)).webp({ quality: 55 }).toFile(out);
    console.log(`${out}: ${info.width}x${info.height}, ${info.size} bytes`);
  }
}

if (process.argv[1]?.endsWith("demo-images.ts")) void main();
