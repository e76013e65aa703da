import sharp from "sharp";

/**
 * Media made on the fly for the media tests: images by sharp (one carrying GPS EXIF, as a phone
 * writes it), and the first bytes of video and audio containers, enough for sniffing and storing.
 */

const pad = (head: Buffer, size = 8192) => Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 7)]);

export const GPS_EXIF = {
  IFD0: { Make: "TrailPhone", Model: "Stand 9", Copyright: "SecretCreekBottom" },
  IFD3: {
    GPSLatitudeRef: "N",
    GPSLatitude: "44/1 30/1 3230/100",
    GPSLongitudeRef: "W",
    GPSLongitude: "91/1 45/1 1200/100",
  },
};

/** A JPEG with GPS coordinates in its EXIF. */
export function jpegWithGps(width = 1600, height = 1200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 120, g: 90, b: 60 } } })
    .jpeg()
    .withExif(GPS_EXIF)
    .toBuffer();
}

/** A JPEG whose pixels are stored landscape but whose EXIF says "rotate 90° clockwise" (a phone held upright). */
export function jpegRotated(width = 200, height = 100): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 200, b: 10 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

export function png(width = 300, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

export const mp4Head = (size?: number) =>
  pad(Buffer.from("000000206674797069736f6d0000020069736f6d69736f326176633161766331", "hex"), size);
export const webmHead = () =>
  pad(Buffer.from("1a45dfa39f4286810142f7810142f2810442f381084282847765626d42878104428581021853806701", "hex"));
export const mp3Head = () => pad(Buffer.concat([Buffer.from("ID3"), Buffer.from([4, 0, 0, 0, 0, 0, 10]), Buffer.alloc(10), Buffer.from([0xff, 0xfb, 0x90, 0x64])]));
export const wavHead = () => pad(Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x24, 0, 0, 0]), Buffer.from("WAVEfmt ")]));
export const m4aHead = () => pad(Buffer.from("00000020667479704d344120000000004d34412069736f6d", "hex"));
export const heicHead = () => pad(Buffer.from("000000186674797068656963000000006d69663168656963", "hex"));
export const pdfHead = () => pad(Buffer.from("%PDF-1.4\n"));

/** Does a TIFF/EXIF block carry a GPS IFD (tag 0x8825 in IFD0)? */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  // sharp returns the APP1 payload starting with "Exif\0\0".
  const tiff = exif.subarray(0, 6).toString("latin1") === "Exif\0\0" ? exif.subarray(6) : exif;
  const little = tiff.subarray(0, 2).toString("latin1") === "II";
  const u16 = (o: number) => (little ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (little ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd0 = u32(4);
  const count = u16(ifd0);
  for (let i = 0; i < count; i++) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

/** An async iterable of `total` bytes starting with `head`, produced lazily in `chunk`-sized pieces. */
export async function* lazyBytes(head: Buffer, total: number, chunk = 64 * 1024): AsyncGenerator<Uint8Array> {
  yield head;
  let sent = head.length;
  const filler = Buffer.alloc(chunk, 1);
  while (sent < total) {
    const n = Math.min(chunk, total - sent);
    sent += n;
    yield n === chunk ? new Uint8Array(filler) : new Uint8Array(n);
  }
}

/**
 * A real S3 endpoint for the S3 storage tests: s3rver on 127.0.0.1 at a random port, with one
 * bucket, its files in a throw-away directory.
 */
export async function startS3rver(bucket = "whitetail-test") {
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  // s3rver ships no types: imported by a name TypeScript does not resolve.
  const moduleName: string = "s3rver";
  const { default: S3rver } = (await import(moduleName)) as {
    default: new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };
  };
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "whitetail-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    directory,
    options: { bucket, region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export async function streamToBuffer(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

type Part =
  | { name: string; value: string }
  | { name: string; filename: string; contentType?: string; data: Buffer | AsyncIterable<Uint8Array> };

/**
 * A multipart/form-data body produced lazily, as a browser streams it: nothing larger than one
 * chunk exists at a time, so a test can send 51 MB without allocating 51 MB.
 */
export function multipartStream(parts: Part[]) {
  const boundary = `----whitetail${Math.random().toString(16).slice(2)}`;
  async function* generate(): AsyncGenerator<Uint8Array> {
    for (const part of parts) {
      if ("value" in part) {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`);
      } else {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? "application/octet-stream"}\r\n\r\n`,
        );
        if (part.data instanceof Uint8Array) yield part.data;
        else for await (const chunk of part.data) yield chunk;
        yield Buffer.from("\r\n");
      }
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  let pulled = 0;
  const iterator = generate();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else {
        pulled += value.byteLength;
        controller.enqueue(value);
      }
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, bytesPulled: () => pulled };
}

/** A POST of a multipart body to the app, from the same origin, as a signed-in member or a visitor. */
export function multipartRequest(
  path: string,
  parts: Part[],
  { cookie, headers = {} }: { cookie?: string | null; headers?: Record<string, string> } = {},
) {
  const { body, contentType, bytesPulled } = multipartStream(parts);
  const h = new Headers({ Origin: "http://localhost:3000", "Content-Type": contentType, ...headers });
  if (cookie) h.set("Cookie", cookie);
  const request = new Request(`http://localhost:3000${path}`, { method: "POST", headers: h, body, duplex: "half" } as RequestInit);
  return { request, bytesPulled };
}
