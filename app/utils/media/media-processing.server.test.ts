import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  exifHasGps,
  GPS_EXIF,
  heicHead,
  hostileGif,
  jpegRotated,
  jpegWithGps,
  m4aHead,
  mp3Head,
  mp4Head,
  pdfHead,
  png,
  wavHead,
  webmHead,
} from "#tests/fixtures/media";
import { env } from "../env.server";
import { IMAGE_LIMITS, IMAGE_QUEUE, imageQueue, processImage, sniffFormat } from "./media-processing.server";

describe("sniffFormat: the bytes decide, not the name", () => {
  it("recognises images, video and audio from their first bytes", async () => {
    expect(await sniffFormat(await jpegWithGps(40, 30))).toMatchObject({ kind: "image", ext: "jpg", contentType: "image/jpeg" });
    expect(await sniffFormat(await png(10, 10))).toMatchObject({ kind: "image", ext: "png", contentType: "image/png" });
    expect(await sniffFormat(mp4Head())).toMatchObject({ kind: "video", ext: "mp4", contentType: "video/mp4" });
    expect(await sniffFormat(webmHead())).toMatchObject({ kind: "video", ext: "webm", contentType: "video/webm" });
    expect(await sniffFormat(mp3Head())).toMatchObject({ kind: "audio", ext: "mp3", contentType: "audio/mpeg" });
    expect(await sniffFormat(wavHead())).toMatchObject({ kind: "audio", ext: "wav", contentType: "audio/wav" });
    expect(await sniffFormat(m4aHead())).toMatchObject({ kind: "audio", ext: "m4a", contentType: "audio/mp4" });
  });

  it("refuses everything else with 415", async () => {
    for (const bytes of [
      Buffer.from("<!doctype html><script>alert(1)</script>"),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      pdfHead(),
      Buffer.from("just some text that someone named photo.jpg"),
      Buffer.alloc(0),
    ]) {
      await expect(sniffFormat(bytes)).rejects.toMatchObject({ status: 415 });
    }
  });

  it("names the image format it cannot show", async () => {
    await expect(sniffFormat(heicHead())).rejects.toMatchObject({ status: 415, message: expect.stringContaining("HEIC") });
  });
});

describe("processImage: no metadata survives, orientation does", () => {
  it("strips GPS and every other EXIF field from a phone photo", async () => {
    const input = await jpegWithGps();
    const before = await sharp(input).metadata();
    expect(exifHasGps(before.exif)).toBe(true);
    expect(input.includes("SecretCreekBottom")).toBe(true);

    const out = await processImage(input, await sniffFormat(input));
    for (const data of [out.main.data, ...out.variants.map((v) => v.data)]) {
      const meta = await sharp(data).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(data.includes("Exif\0\0")).toBe(false);
      expect(data.includes(GPS_EXIF.IFD0.Copyright)).toBe(false);
      expect(data.includes(GPS_EXIF.IFD0.Make)).toBe(false);
    }
  });

  it("applies the EXIF orientation before dropping it", async () => {
    const input = await jpegRotated(200, 100);
    expect((await sharp(input).metadata()).orientation).toBe(6);
    const out = await processImage(input, await sniffFormat(input));
    expect(out.main).toMatchObject({ width: 100, height: 200 });
    const meta = await sharp(out.main.data).metadata();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([100, 200]);
  });

  it("makes 480, 1080 and 1440 px WebP variants, never enlarging: a narrower picture is its own variant for the wider targets", async () => {
    const big = await jpegWithGps(1600, 1200);
    const out = await processImage(big, await sniffFormat(big));
    expect(out.main).toMatchObject({ width: 1600, height: 1200, ext: "jpg" });
    expect(out.variants.map((v) => [v.target, v.width, v.height])).toEqual([
      [480, 480, 360],
      [1080, 1080, 810],
      [1440, 1440, 1080],
    ]);
    for (const v of out.variants) expect((await sharp(v.data).metadata()).format).toBe("webp");

    const medium = await png(800, 400);
    const mediumOut = await processImage(medium, await sniffFormat(medium));
    expect(mediumOut.variants.map((v) => [v.target, v.width])).toEqual([
      [480, 480],
      [1080, 800],
      [1440, 800],
    ]);
    // Encoded once, stored under each target's name (ADR 0036).
    expect(mediumOut.variants[2]!.data).toBe(mediumOut.variants[1]!.data);

    const small = await png(300, 200);
    const smallOut = await processImage(small, await sniffFormat(small));
    expect(smallOut.variants.map((v) => [v.target, v.width])).toEqual([
      [480, 300],
      [1080, 300],
      [1440, 300],
    ]);
    expect(smallOut.main).toMatchObject({ width: 300, height: 200, ext: "png" });
  });

  it("refuses a file that only looks like an image", async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 3)]);
    await expect(processImage(fake, { kind: "image", ext: "jpg", contentType: "image/jpeg" })).rejects.toMatchObject({ status: 415 });
  });
});

describe("processImage: animations cannot cost the site seconds (security.md M4)", () => {
  const gif = { kind: "image", ext: "gif", contentType: "image/gif" } as const;

  it("refuses 24 frames of 2000×2000 (96 megapixels, a 600-byte file) from the header, at once", async () => {
    const hostile = hostileGif(2000, 2000, 24);
    expect(hostile.byteLength).toBeLessThan(1000);
    const started = performance.now();
    await expect(processImage(hostile, await sniffFormat(hostile))).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/24 frames of 2000×2000 add up to more than 50 megapixels/),
    });
    // Decoding and re-encoding it took ~8 s before; the header alone is milliseconds.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses more than 200 frames, however small", async () => {
    const many = hostileGif(10, 10, IMAGE_LIMITS.maxFrames + 1);
    await expect(processImage(many, gif)).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/too many frames \(201; the limit is 200\)/),
    });
  });

  it("still takes an animation within the limits, and keeps it animated", async () => {
    const ok = hostileGif(600, 400, 12);
    const out = await processImage(ok, gif);
    expect(out.main).toMatchObject({ width: 600, height: 400, ext: "gif" });
    expect((await sharp(out.main.data).metadata()).pages).toBe(12);
    expect(out.variants.map((v) => v.width)).toEqual([480, 600, 600]);
    for (const v of out.variants) expect((await sharp(v.data).metadata()).pages).toBe(12);
  });

  it("gives up on an image that takes longer than its time limit (413, nothing returned)", async () => {
    // 48 megapixels of frames: within the limits, but seconds of work; given one second it is refused.
    const slow = hostileGif(2000, 2000, 12);
    const started = performance.now();
    await expect(processImage(slow, gif, { timeoutSeconds: 1 })).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/took too long to process \(the limit is 1 seconds\)/),
    });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(imageQueue.load).toEqual({ running: 0, waiting: 0 });
  });
});

describe("the image queue: each member's share, a wait that ends before the idle timeout (security-2 N7, N10)", () => {
  it("a queued image gets its answer before the server closes an idle connection", () => {
    expect(IMAGE_QUEUE.maxWaitMs + IMAGE_LIMITS.timeoutSeconds * 1000).toBeLessThan(env.IDLE_TIMEOUT_MS);
  });

  it("processImage queues under its owner: past the owner's share only that owner gets 429; another owner's image is processed first", async () => {
    const format = await sniffFormat(await png(8, 8));
    const data = await png(32, 32);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held = Array.from({ length: IMAGE_QUEUE.concurrency }, (_, i) => imageQueue.run(() => gate, { key: `test-gate:${i}` }));
    const done: string[] = [];
    try {
      const mine = Array.from({ length: IMAGE_QUEUE.perMember }, () => processImage(data, format, { owner: 1 }).then(() => done.push("1")));
      await expect.poll(() => imageQueue.load.waiting).toBe(IMAGE_QUEUE.perMember);
      await expect(processImage(data, format, { owner: 1 })).rejects.toMatchObject({ status: 429, retryAfter: expect.any(Number) });
      const theirs = processImage(data, format, { owner: 2 }).then(() => done.push("2"));
      await expect.poll(() => imageQueue.load.waiting).toBe(IMAGE_QUEUE.perMember + 1);
      open();
      await Promise.all([...held, ...mine, theirs]);
      expect(done.indexOf("2")).toBeLessThan(done.lastIndexOf("1"));
    } finally {
      open();
    }
  });
});
