import { describe, expect, it } from "vitest";
import { formatBytes, imageSources, SIZES, smallestImage, variantsOf } from "./image-sources";

const base = "/media/2026/11/0123456789abcdef0123456789abcdef";
const stored = {
  url: `${base}.jpg`,
  size: 3_471_963,
  width: 2900,
  variants: [
    { width: 480, height: 339, url: `${base}-480.webp`, size: 34_052 },
    { width: 1080, height: 763, url: `${base}-1080.webp`, size: 319_380 },
    { width: 1440, height: 1017, url: `${base}-1440.webp`, size: 540_000 },
  ],
};

/**
 * What Chromium picks from a `w` srcset (HTML's selection, without its cache tweaks): the smallest
 * candidate whose density (width / slot width) reaches the device pixel ratio, else the largest.
 */
function pick(srcSet: string, slotCssPx: number, dpr: number): string {
  const candidates = srcSet.split(", ").map((c) => {
    const [url, w] = c.split(" ");
    return { url: url!, density: Number(w!.slice(0, -1)) / slotCssPx };
  });
  return (candidates.find((c) => c.density >= dpr) ?? candidates[candidates.length - 1]!).url;
}

describe("imageSources", () => {
  it("lists the variants only: the full-size picture is never a candidate, nor the src", () => {
    const { src, srcSet, sizes } = imageSources(stored, SIZES.post);
    expect(srcSet).toBe(`${base}-480.webp 480w, ${base}-1080.webp 1080w, ${base}-1440.webp 1440w`);
    expect(srcSet).not.toContain(stored.url);
    expect(src).toBe(`${base}-1440.webp`);
    expect(sizes).toBe(SIZES.post);
  });

  // The post column is the viewport less the page's padding below 768 px (SIZES.post).
  it.each([
    [360, 3],
    [390, 3],
    [412, 2.625],
    [412, 1.75],
    [430, 3],
    [1280, 1],
    [1280, 2],
  ])("a %i px screen at %s× picks a variant, never the original", (viewport, dpr) => {
    const slot = viewport >= 768 ? 720 : viewport - 32;
    const chosen = pick(imageSources(stored, SIZES.post).srcSet!, slot, dpr);
    expect(chosen).not.toBe(stored.url);
    expect(chosen).toMatch(/-\d+\.webp$/);
  });

  it("the phones the audit measured get the 1080 px variant", () => {
    const { srcSet } = imageSources(stored, SIZES.post);
    expect(pick(srcSet!, 390 - 32, 3)).toBe(`${base}-1080.webp`);
    expect(pick(srcSet!, 412 - 32, 2.625)).toBe(`${base}-1080.webp`);
  });

  it("an upload's bare address (avatar, club image) gets every upload's variants by key", () => {
    const { src, srcSet, sizes } = imageSources(`${base}.png`, SIZES.fixed(40));
    expect(srcSet).toBe(`${base}-480.webp 480w, ${base}-1080.webp 1080w, ${base}-1440.webp 1440w`);
    expect(src).toBe(`${base}-1440.webp`);
    expect(sizes).toBe("40px");
    expect(pick(srcSet!, 40, 3)).toBe(`${base}-480.webp`);
    // On an S3 public address too.
    expect(variantsOf(`https://cdn.example.com/2026/11/${"a".repeat(32)}.jpg`)[0]?.url).toBe(
      `https://cdn.example.com/2026/11/${"a".repeat(32)}-480.webp`,
    );
  });

  it("anything else (another site's image, a file without variants) is used as it is", () => {
    expect(imageSources("https://example.com/deer.jpg", SIZES.club)).toEqual({ src: "https://example.com/deer.jpg" });
    expect(imageSources({ url: `${base}.gif`, variants: null }, SIZES.post)).toEqual({ src: `${base}.gif` });
  });
});

describe("smallestImage", () => {
  it("is the smallest variant with its size, else the file itself", () => {
    expect(smallestImage(stored)).toEqual({ url: `${base}-480.webp`, size: 34_052 });
    expect(smallestImage({ url: `${base}.gif`, size: 900 })).toEqual({ url: `${base}.gif`, size: 900 });
    expect(smallestImage(`${base}.jpg`)).toEqual({ url: `${base}-480.webp`, size: null });
  });
});

describe("formatBytes", () => {
  it("reads as a member on a metered link would", () => {
    expect(formatBytes(900)).toBe("900 B");
    expect(formatBytes(34_052)).toBe("33 KB");
    expect(formatBytes(3_471_963)).toBe("3.3 MB");
  });
});
