import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { media, rateLimits, resumableUploads } from "#db/schema";
import { ownPendingUploads } from "~/models/media/media.server";
import { pruneExpiredResumables } from "~/models/media/resumable-upload.server";
import { action as accountAction } from "~/routes/api.auth.account";
import { action as createAction } from "~/routes/api.uploads";
import { action as uploadAction, loader as uploadLoader } from "~/routes/api.uploads.$";
import { db, queryRow } from "~/utils/db.server";
import { LIMITS } from "~/utils/rate-limit.server";
import { createS3Storage, setStorage } from "~/utils/media/storage.server";
import {
  createResumableStore,
  getResumableStore,
  RESUMABLE_EXPIRES_MS,
  resumableDirectory,
  setResumableStore,
} from "~/utils/media/tus-store.server";
import { call, createMember } from "../fixtures/members";
import { exifHasGps, jpegWithGps, mp4Head, pdfHead, startS3rver } from "../fixtures/media";
import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";

/**
 * The tus protocol at /api/uploads (docs/decisions/0035-resumable-uploads.md): create, PATCH,
 * HEAD, resume; only the member who started an upload may touch it; the finished file goes
 * through the same pipeline as /api/upload; unfinished uploads expire and are cleaned up.
 */

const ORIGIN = "http://localhost:3000";
const MB = 1024 * 1024;

type Member = Awaited<ReturnType<typeof createMember>>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  alice = await createMember();
  bob = await createMember();
});

function tusHeaders(cookie: string | null, extra: Record<string, string> = {}) {
  const h = new Headers({ "Tus-Resumable": "1.0.0", Origin: ORIGIN, ...extra });
  if (cookie) h.set("Cookie", cookie);
  return h;
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

async function create(cookie: string | null, length: number, filename = "buck.jpg") {
  const request = new Request(`${ORIGIN}/api/uploads`, {
    method: "POST",
    headers: tusHeaders(cookie, {
      "Upload-Length": String(length),
      "Upload-Metadata": `filename ${b64(filename)},filetype ${b64("image/jpeg")}`,
    }),
  });
  const response = await call(createAction, request);
  return { response, url: response.headers.get("Location") };
}

async function patch(cookie: string | null, url: string, offset: number, bytes: Uint8Array, Req: typeof Request = Request) {
  const request = new Req(`${ORIGIN}${url}`, {
    method: "PATCH",
    headers: tusHeaders(cookie, { "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" }),
    body: bytes,
    duplex: "half",
  } as RequestInit);
  return call(uploadAction, request as Request);
}

async function head(cookie: string | null, url: string) {
  return call(uploadLoader, new Request(`${ORIGIN}${url}`, { method: "HEAD", headers: tusHeaders(cookie) }));
}

async function remove(cookie: string | null, url: string) {
  return call(uploadAction, new Request(`${ORIGIN}${url}`, { method: "DELETE", headers: tusHeaders(cookie) }));
}

const idOf = (url: string) => url.split("/").pop()!;

/** Bytes waiting in the resumable uploads' folder. */
function directoryBytes(): number {
  const dir = resumableDirectory();
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir).reduce((total, name) => total + fs.statSync(path.join(dir, name)).size, 0);
}

describe("resumable uploads (tus) at /api/uploads", () => {
  it("creates, takes half, tells the offset, resumes, and stores the finished image like /api/upload", async () => {
    const photo = await jpegWithGps(1600, 1200);
    const { response, url } = await create(alice.cookie, photo.length);
    expect(response.status).toBe(201);
    expect(url).toMatch(/^\/api\/uploads\/_[0-9a-f]{32}$/);

    const half = Math.floor(photo.length / 2);
    const first = await patch(alice.cookie, url!, 0, photo.subarray(0, half));
    expect(first.status).toBe(204);
    expect(first.headers.get("Upload-Offset")).toBe(String(half));
    expect(first.headers.get("Upload-Expires")).toBeTruthy();

    const probe = await head(alice.cookie, url!);
    expect(probe.status).toBe(200);
    expect(probe.headers.get("Upload-Offset")).toBe(String(half));
    expect(probe.headers.get("Upload-Length")).toBe(String(photo.length));

    // A stale offset is a conflict, not a corruption.
    expect((await patch(alice.cookie, url!, 0, photo.subarray(0, 10))).status).toBe(409);

    const last = await patch(alice.cookie, url!, half, photo.subarray(half));
    expect(last.status).toBe(200);
    const file = await last.json();
    expect(file).toMatchObject({ type: "image", name: "buck.jpg", width: 1600, height: 1200 });
    expect(file.url).toMatch(/^\/media\/\d{4}\/\d{2}\/[0-9a-f]{32}\.jpg$/);
    expect(file.variants.map((v: { width: number }) => v.width)).toEqual([480, 1080, 1440]);

    const row = (await db.select().from(media).where(eq(media.url, file.url)))[0]!;
    expect(row).toMatchObject({ ownerId: alice.id, postId: null, kind: "image" });
    // The same kind of record the post form takes.
    expect((await ownPendingUploads(alice, [file.url])).map((f) => f.url)).toEqual([file.url]);
    const stored = fs.readFileSync(path.join(process.env.UPLOAD_DIR!, file.url.replace("/media/", "")));
    const meta = await sharp(stored).metadata();
    expect(exifHasGps(meta.exif)).toBe(false);
    expect(stored.includes("SecretCreekBottom")).toBe(false);

    // The waiting bytes are gone; a client whose finishing reply was lost asks for the file again.
    expect(fs.existsSync(path.join(resumableDirectory(), idOf(url!)))).toBe(false);
    const again = await call(uploadLoader, new Request(`${ORIGIN}${url}`, { headers: { Cookie: alice.cookie } }));
    expect(again.status).toBe(200);
    expect((await again.json()).url).toBe(file.url);
  });

  it("lets only a member start an upload, and only its owner continue, inspect or cancel it", async () => {
    const visitor = await create(null, 1000);
    expect(visitor.response.status).toBe(401);
    expect(visitor.url).toBeNull();

    const { url } = await create(alice.cookie, 1000);
    const bytes = mp4Head(1000);
    for (const [who, status] of [
      [null, 401],
      [bob.cookie, 403],
    ] as const) {
      expect((await head(who, url!)).status).toBe(status);
      expect((await patch(who, url!, 0, bytes)).status).toBe(status);
      expect((await remove(who, url!)).status).toBe(status);
      const get = await call(uploadLoader, new Request(`${ORIGIN}${url}`, who ? { headers: { Cookie: who } } : {}));
      expect(get.status).toBe(status);
    }
    expect((await head(alice.cookie, url!)).headers.get("Upload-Offset")).toBe("0");
    expect((await remove(alice.cookie, url!)).status).toBe(204);
    expect((await head(alice.cookie, url!)).status).toBe(404);
    expect(
      await db
        .select()
        .from(resumableUploads)
        .where(eq(resumableUploads.id, idOf(url!))),
    ).toEqual([]);
  });

  it("refuses a cross-site create (403)", async () => {
    const request = new Request(`${ORIGIN}/api/uploads`, {
      method: "POST",
      headers: tusHeaders(alice.cookie, { "Upload-Length": "10", Origin: "https://evil.example" }),
    });
    expect((await call(createAction, request)).status).toBe(403);
  });

  it("refuses a file over 50 MB when it is declared (413)", async () => {
    const { response } = await create(alice.cookie, 51 * MB);
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe("File is too large. The limit is 50MB per file.");
  });

  it("sniffs the finished bytes: a PDF is refused (415) and nothing of it is kept", async () => {
    const before = (await db.select().from(media)).length;
    const pdf = pdfHead();
    const { url } = await create(alice.cookie, pdf.length, "song.mp3");
    const last = await patch(alice.cookie, url!, 0, pdf);
    expect(last.status).toBe(415);
    expect((await last.json()).error).toMatch(/Unsupported file type/);
    expect((await db.select().from(media)).length).toBe(before);
    expect((await head(alice.cookie, url!)).status).toBe(404);
    expect(fs.existsSync(path.join(resumableDirectory(), idOf(url!)))).toBe(false);
  });

  it("refuses to start past the hourly upload limit (429)", async () => {
    limitsOn();
    try {
      const carol = await createMember();
      await db.insert(rateLimits).values({
        key: `uploadsPerUser:${carol.id}`,
        windowStart: Math.floor(Date.now() / 3_600_000) * 3_600_000,
        count: LIMITS.uploadsPerUser.limit,
      });
      const { response } = await create(carol.cookie, 1000);
      expect(response.status).toBe(429);
    } finally {
      limitsOff();
    }
  });

  it("counts an upload against the hourly limit when it is created, and gives it back when it is cancelled (N2)", async () => {
    limitsOn();
    try {
      const dave = await createMember();
      const used = async () =>
        Number(
          (await queryRow<{ count: number }>(`SELECT count FROM rate_limits WHERE key = ?`, [`uploadsPerUser:${dave.id}`]))?.count ?? 0,
        );
      const { response, url } = await create(dave.cookie, 4000);
      expect(response.status).toBe(201);
      expect(await used()).toBe(1);
      expect((await remove(dave.cookie, url!)).status).toBe(204);
      expect(await used()).toBe(0);

      // A finished one counts once, not again when its file is stored.
      const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#553" } })
        .jpeg()
        .toBuffer();
      const second = await create(dave.cookie, jpeg.byteLength);
      expect((await patch(dave.cookie, second.url!, 0, jpeg)).status).toBe(200);
      expect(await used()).toBe(1);
    } finally {
      limitsOff();
    }
  });

  it("holds at most 10 unfinished uploads per member: the audit's disk probe, bounded (N2)", async () => {
    const erin = await createMember();
    const before = directoryBytes();
    const answers: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      const { response, url } = await create(erin.cookie, 50 * MB);
      answers.push(response.status);
      if (url) expect((await patch(erin.cookie, url, 0, mp4Head(MB))).status).toBe(204);
    }
    expect(answers).toEqual([...Array(10).fill(201), ...Array(5).fill(429)]);
    // What one member parked on disk: ten 1 MB starts, and nothing of the five refused.
    expect(directoryBytes() - before).toBeLessThanOrEqual(10 * MB + 64 * 1024);
    const refused = await create(erin.cookie, 1000);
    expect(await refused.response.json()).toEqual({ error: expect.stringMatching(/too many unfinished uploads/) });

    // Another member is not held back by it, and a cancelled upload frees a place.
    expect((await create(bob.cookie, 1000)).response.status).toBe(201);
    const [first] = await db.select().from(resumableUploads).where(eq(resumableUploads.ownerId, erin.id));
    expect((await remove(erin.cookie, `/api/uploads/${first!.id}`)).status).toBe(204);
    expect((await create(erin.cookie, 1000)).response.status).toBe(201);
  });

  it("holds at most 500 MB of unfinished bytes per member, deferred lengths counted as the largest file (N2)", async () => {
    const finn = await createMember();
    // Uploads declared before the cap (or from another process) already hold 480 MB.
    await db.insert(resumableUploads).values({ id: "_held-by-finn", ownerId: finn.id, length: 480 * MB });
    expect((await create(finn.cookie, 30 * MB)).response.status).toBe(429);
    const deferred = await call(
      createAction,
      new Request(`${ORIGIN}/api/uploads`, { method: "POST", headers: tusHeaders(finn.cookie, { "Upload-Defer-Length": "1" }) }),
    );
    expect(deferred.status).toBe(429);
    expect((await create(finn.cookie, 20 * MB)).response.status).toBe(201);
    expect(await db.select().from(resumableUploads).where(eq(resumableUploads.ownerId, finn.id))).toHaveLength(2);
  });

  it("removes a deleted member's unfinished upload bytes at once, not a day later (N18)", async () => {
    const gail = await createMember();
    const { url } = await create(gail.cookie, 10_000);
    await patch(gail.cookie, url!, 0, mp4Head(4000));
    const file = path.join(resumableDirectory(), idOf(url!));
    expect(fs.existsSync(file)).toBe(true);
    const gone = await call(
      accountAction,
      new Request(`${ORIGIN}/api/auth/account`, {
        method: "DELETE",
        headers: { Cookie: gail.cookie, Origin: ORIGIN, "Content-Type": "application/json" },
        body: JSON.stringify({ password: gail.password }),
      }),
    );
    expect(gone.status).toBe(204);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(`${file}.json`)).toBe(false);
  });

  it("expires unfinished uploads after a day and removes their bytes", async () => {
    const { url } = await create(alice.cookie, 10_000);
    await patch(alice.cookie, url!, 0, mp4Head(4000));
    const file = path.join(resumableDirectory(), idOf(url!));
    expect(fs.statSync(file).size).toBe(4000);

    expect(await pruneExpiredResumables(getResumableStore(), Date.now() + 60_000)).toBe(0);
    expect(fs.existsSync(file)).toBe(true);

    expect(await pruneExpiredResumables(getResumableStore(), Date.now() + RESUMABLE_EXPIRES_MS + 60_000)).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(`${file}.json`)).toBe(false);
    expect((await head(alice.cookie, url!)).status).toBe(404);
  });
});

describe("resumable uploads with S3 (s3rver)", () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  beforeAll(async () => {
    s3 = await startS3rver();
    setStorage(createS3Storage(s3.options));
    setResumableStore(createResumableStore({ s3: s3.options }));
  });
  afterAll(async () => {
    setStorage(null);
    setResumableStore(null);
    await s3.close();
  });

  const listKeys = async () => {
    const xml = await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2`).then((r) => r.text());
    return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!);
  };
  const listMultipart = async () => {
    const xml = await fetch(`${s3.endpoint}/${s3.bucket}?uploads`).then((r) => r.text());
    return [...xml.matchAll(/<UploadId>([^<]+)<\/UploadId>/g)].length;
  };

  it("takes a 6 MB video in a 5 MB part and the rest, resumes after HEAD, and stores it in the bucket", async () => {
    const video = Buffer.concat([mp4Head(), Buffer.alloc(6 * MB - mp4Head().length, 3)]);
    const { response, url } = await create(alice.cookie, video.length, "hunt.mp4");
    expect(response.status, await response.clone().text()).toBe(201);
    const first = await patch(alice.cookie, url!, 0, video.subarray(0, 5 * MB));
    expect(first.status).toBe(204);
    expect((await head(alice.cookie, url!)).headers.get("Upload-Offset")).toBe(String(5 * MB));
    const last = await patch(alice.cookie, url!, 5 * MB, video.subarray(5 * MB));
    expect(last.status).toBe(200);
    const file = await last.json();
    expect(file).toMatchObject({ type: "video", name: "hunt.mp4" });
    const keys = await listKeys();
    expect(keys).toContain(file.url.replace("/media/", ""));
    // Nothing of the tus upload is left in the bucket.
    expect(keys.filter((k) => k.startsWith(idOf(url!)))).toEqual([]);
  });

  it("cleans up an expired upload's multipart parts and its incomplete part", async () => {
    const { url } = await create(alice.cookie, 8 * MB, "long.mp4");
    await patch(alice.cookie, url!, 0, Buffer.concat([mp4Head(), Buffer.alloc(MB, 1)]));
    const id = idOf(url!);
    expect((await listKeys()).filter((k) => k.startsWith(id)).length).toBeGreaterThan(0);
    await pruneExpiredResumables(getResumableStore(), Date.now() + RESUMABLE_EXPIRES_MS + 60_000);
    expect((await listKeys()).filter((k) => k.startsWith(id))).toEqual([]);
    expect(await listMultipart()).toBe(0);
  });
});
