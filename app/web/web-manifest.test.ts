import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { SHARE_PATH } from "./origin.server";
import { SHARE_FILES_FIELD } from "./share.server";

/**
 * public/manifest.webmanifest (CONTRACT.md §14 "Sharing from the phone", issue 43 item 1, ADR 0092):
 * installable, and a share target for files, with icons that exist at the sizes it says.
 */
type Icon = { src: string; sizes: string; type: string; purpose?: string };
const manifest = JSON.parse(fs.readFileSync(path.join("public", "manifest.webmanifest"), "utf8")) as {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: Icon[];
  share_target: {
    action: string;
    method: string;
    enctype: string;
    params: { title: string; text: string; url: string; files: { name: string; accept: string[] }[] };
  };
};

describe("the web app manifest", () => {
  it("declares an installable app in the site's colours", () => {
    expect(manifest).toMatchObject({ name: "Whitetail Pulse", short_name: "Whitetail", start_url: "/", scope: "/", display: "standalone" });
    const config = fs.readFileSync("tailwind.config.ts", "utf8");
    // bark-900, the header's colour, as the theme; the root's <meta name="theme-color"> says the same.
    expect(config).toContain(`900: "${manifest.theme_color}"`);
    expect(fs.readFileSync(path.join("app", "root.tsx"), "utf8")).toContain(
      `<meta name="theme-color" content="${manifest.theme_color}" />`,
    );
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("has PNG icons of 192 and 512 px, for any use and maskable, that exist at those sizes", async () => {
    const png = manifest.icons.filter((icon) => icon.type === "image/png");
    for (const purpose of ["any", "maskable"]) {
      expect(png.filter((i) => i.purpose === purpose).map((i) => i.sizes)).toEqual(["192x192", "512x512"]);
    }
    for (const icon of png) {
      const file = path.join("public", icon.src);
      expect(fs.existsSync(file), icon.src).toBe(true);
      const meta = await sharp(file).metadata();
      expect([meta.format, `${meta.width}x${meta.height}`]).toEqual(["png", icon.sizes]);
    }
  });

  it("draws a maskable icon to its edges (no transparent corner for a launcher's mask to show)", async () => {
    const { data, info } = await sharp(path.join("public", "icons", "maskable-512.png"))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
    expect([alphaAt(0, 0), alphaAt(511, 0), alphaAt(0, 511), alphaAt(511, 511)]).toEqual([255, 255, 255, 255]);
  });

  it("is a share target for title, text, url and image, video and audio files, posted to /share", () => {
    expect(manifest.share_target).toEqual({
      action: SHARE_PATH,
      method: "POST",
      enctype: "multipart/form-data",
      params: { title: "title", text: "text", url: "url", files: [{ name: SHARE_FILES_FIELD, accept: ["image/*", "video/*", "audio/*"] }] },
    });
  });
});
