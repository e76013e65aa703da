import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lazyBytes, startS3rver, streamToBuffer } from "#tests/fixtures/media";
import { tooLarge } from "../errors";
import { contentTypeForKey, createLocalStorage, createS3Storage, isValidKey, type MediaStorage } from "./storage.server";

describe("storage keys", () => {
  it("accepts the keys uploads make and nothing that could leave the storage", () => {
    for (const key of ["2026/11/abcDEF_12-x.jpg", "2026/11/abc-480.webp", "a.mp4"]) expect(isValidKey(key)).toBe(true);
    for (const key of [
      "../secret.jpg",
      "2026/../../etc/passwd.jpg",
      "/etc/passwd.jpg",
      "2026//x.jpg",
      ".hidden.jpg",
      "2026/11/x.jpg.part-abc123",
      "x",
      "2026\\11\\x.jpg",
      "x.jpg%00.txt",
      "",
    ]) {
      expect(isValidKey(key), key).toBe(false);
    }
  });

  it("knows the content type of every stored format", () => {
    expect(contentTypeForKey("a/b.jpg")).toBe("image/jpeg");
    expect(contentTypeForKey("a/b.webp")).toBe("image/webp");
    expect(contentTypeForKey("a/b.mp4")).toBe("video/mp4");
    expect(contentTypeForKey("a/b.m4a")).toBe("audio/mp4");
    expect(contentTypeForKey("a/b.exe")).toBe("application/octet-stream");
  });
});

/** The same behaviour is asked of both implementations. */
function behavesLikeStorage(name: string, make: () => MediaStorage) {
  describe(name, () => {
    it("puts, stats, reads (whole and a range) and deletes", async () => {
      const storage = make();
      const key = `2026/11/${name}-roundtrip.mp4`;
      const body = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
      await expect(storage.put(key, body, { contentType: "video/mp4" })).resolves.toEqual({ size: body.length });

      const info = await storage.stat(key);
      expect(info).toMatchObject({ size: body.length, contentType: "video/mp4" });
      expect(info!.etag).toMatch(/^".+"$/);
      expect(info!.lastModified).toBeInstanceOf(Date);

      expect((await streamToBuffer(await storage.read(key))).equals(body)).toBe(true);
      const part = await streamToBuffer(await storage.read(key, { start: 1000, end: 1999 }));
      expect(part.equals(body.subarray(1000, 2000))).toBe(true);

      await storage.delete(key);
      expect(await storage.stat(key)).toBeNull();
      await expect(storage.delete(key)).resolves.toBeUndefined();
    });

    it("streams a body of many chunks and counts it", async () => {
      const storage = make();
      const key = `2026/11/${name}-stream.mp4`;
      const total = 7 * 1024 * 1024 + 123; // more than one S3 part
      const { size } = await storage.put(key, lazyBytes(Buffer.from("head"), total), { contentType: "video/mp4" });
      expect(size).toBe(total);
      expect((await storage.stat(key))!.size).toBe(total);
      await storage.delete(key);
    });

    it("leaves nothing behind when the body fails mid-way", async () => {
      const storage = make();
      const key = `2026/11/${name}-failed.mp4`;
      async function* failing() {
        yield new Uint8Array(6 * 1024 * 1024);
        throw tooLarge("too big");
      }
      await expect(storage.put(key, failing(), { contentType: "video/mp4" })).rejects.toThrow();
      expect(await storage.stat(key)).toBeNull();
    });

    it("answers null for a missing or invalid key", async () => {
      const storage = make();
      expect(await storage.stat("2026/11/missing.jpg")).toBeNull();
      expect(await storage.stat("../escape.jpg")).toBeNull();
      await expect(storage.put("../escape.jpg", Buffer.from("x"), { contentType: "image/jpeg" })).rejects.toThrow(/Invalid storage key/);
    });
  });
}

const localRoot = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-storage-"));
behavesLikeStorage("local", () => createLocalStorage({ root: localRoot }));

describe("local disk specifics", () => {
  it("serves through the app's /media/ route and writes under its root only", async () => {
    const storage = createLocalStorage({ root: localRoot });
    expect(storage.publicUrl("2026/11/a.jpg")).toBe("/media/2026/11/a.jpg");
    await storage.put("2026/11/inside.jpg", Buffer.from("x"), { contentType: "image/jpeg" });
    expect(fs.existsSync(path.join(localRoot, "2026/11/inside.jpg"))).toBe(true);
    // No temporary files are left next to it.
    expect(fs.readdirSync(path.join(localRoot, "2026/11")).filter((f) => f.includes(".part-"))).toEqual([]);
  });
});

let s3: Awaited<ReturnType<typeof startS3rver>>;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(localRoot, { recursive: true, force: true });
});

behavesLikeStorage("s3", () => createS3Storage(s3.options));

describe("S3 specifics (against s3rver)", () => {
  it("stores objects in the bucket with their content type and a year-long cache header", async () => {
    const storage = createS3Storage(s3.options);
    await storage.put("2026/11/cached.webp", Buffer.from("RIFF0000WEBP"), { contentType: "image/webp" });
    const response = await fetch(`${s3.endpoint}/${s3.bucket}/2026/11/cached.webp`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("uses S3_PUBLIC_URL for links when set, the app's /media/ route otherwise", () => {
    expect(createS3Storage(s3.options).publicUrl("2026/11/a.jpg")).toBe("/media/2026/11/a.jpg");
    expect(createS3Storage({ ...s3.options, publicUrl: "https://cdn.example.com/media/" }).publicUrl("2026/11/a.jpg")).toBe(
      "https://cdn.example.com/media/2026/11/a.jpg",
    );
  });
});
