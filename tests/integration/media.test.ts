import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";
import fs from "node:fs";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { linkPreviews, media, posts } from "#db/schema";
import { deleteMediaFiles, discardUploads, mediaFilesOfPost, ownPendingUploads } from "~/models/media/media.server";
import { createPost, deletePost } from "~/models/posts/post.server";
import { action as fetchMetadataAction } from "~/routes/api.fetch-url-metadata";
import { action as uploadAction } from "~/routes/api.upload";
import { action as createAction } from "~/routes/create";
import { loader as mediaLoader, parseRange } from "~/routes/media.$";
import { db, first } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { LIMITS } from "~/utils/rate-limit.server";
import { PEER_ADDRESS_HEADER } from "~/web/params.server";
import { parseMultipartUploads, UploadRefusedError } from "~/web/multipart.server";
import { POST_FILES_FIELD, readPostForm } from "~/web/post-form.server";
import { createS3Storage, getStorage, setStorage } from "~/utils/media/storage.server";
import { call, createMember, makeRequest } from "../fixtures/members";
import {
  exifHasGps,
  jpegWithGps,
  lazyBytes,
  mp3Head,
  mp4Head,
  multipartRequest,
  pdfHead,
  png,
  startS3rver,
  storedFiles,
} from "../fixtures/media";

const MB = 1024 * 1024;

type Member = Awaited<ReturnType<typeof createMember>>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  alice = await createMember();
  bob = await createMember();
});

const mediaCount = async () => (await db.select().from(media)).length;

async function upload(
  parts: Parameters<typeof multipartRequest>[1],
  cookie: string | null = alice.cookie,
  headers?: Record<string, string>,
) {
  const { request, bytesPulled } = multipartRequest("/api/upload", parts, { cookie, headers });
  const response = await call(uploadAction, request);
  return { response, body: await response.json(), bytesPulled };
}

async function getMedia(url: string, headers: Record<string, string> = {}, method = "GET") {
  const key = url.replace(/^\/media\//, "");
  return call(mediaLoader, new Request(`http://localhost:3000${url}`, { method, headers }), { "*": key });
}

describe("POST /api/upload", () => {
  it("stores an image without its GPS, with variants, owned by the uploader (201)", async () => {
    const photo = await jpegWithGps(1600, 1200);
    const { response, body } = await upload([{ name: "file", filename: "buck.jpg", contentType: "image/jpeg", data: photo }]);
    expect(response.status).toBe(201);
    expect(body).toMatchObject({ type: "image", name: "buck.jpg", width: 1600, height: 1200 });
    expect(body.url).toMatch(/^\/media\/\d{4}\/\d{2}\/[\w-]+\.jpg$/);
    expect(body.variants.map((v: { width: number }) => v.width)).toEqual([480, 1080, 1440]);

    const row = first(await db.select().from(media).where(eq(media.url, body.url)))!;
    expect(row).toMatchObject({ ownerId: alice.id, postId: null, kind: "image", mimeType: "image/jpeg" });

    const served = await getMedia(body.url);
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(exifHasGps(meta.exif)).toBe(false);
    expect(bytes.includes("SecretCreekBottom")).toBe(false);
    for (const variant of body.variants) expect((await getMedia(variant.url)).status).toBe(200);
  });

  it("decides the kind from the bytes: a video named .jpg is a video, a PDF named .mp3 is refused (415)", async () => {
    const video = await upload([{ name: "file", filename: "clip.jpg", contentType: "image/jpeg", data: mp4Head(100_000) }]);
    expect(video.response.status).toBe(201);
    expect(video.body).toMatchObject({ type: "video", name: "clip.jpg" });
    expect(video.body.url).toMatch(/\.mp4$/);

    const before = await mediaCount();
    const files = storedFiles().length;
    const pdf = await upload([{ name: "file", filename: "song.mp3", contentType: "audio/mpeg", data: pdfHead() }]);
    expect(pdf.response.status).toBe(415);
    expect(pdf.body.error).toMatch(/Unsupported file type/);
    expect(await mediaCount()).toBe(before);
    expect(storedFiles().length).toBe(files);

    const audio = await upload([{ name: "file", filename: "grunt.mp3", data: mp3Head() }]);
    expect(audio.response.status).toBe(201);
    expect(audio.body.type).toBe("audio");
  });

  it("answers 401 to a visitor without reading the body", async () => {
    const { response, body, bytesPulled } = await upload(
      [{ name: "file", filename: "big.mp4", data: lazyBytes(mp4Head(), 20 * MB) }],
      null,
    );
    expect(response.status).toBe(401);
    expect(body.error).toBeTruthy();
    expect(bytesPulled()).toBeLessThan(1 * MB);
  });

  it("refuses a cross-site upload (403) and a request without a file (400)", async () => {
    const cross = await upload([{ name: "file", filename: "a.png", data: await png() }], alice.cookie, { Origin: "https://evil.example" });
    expect(cross.response.status).toBe(403);
    const none = await upload([{ name: "title", value: "no file here" }]);
    expect(none.response.status).toBe(400);
    expect(none.body.fieldErrors.file).toEqual(["Choose a file to upload"]);
  });

  it("refuses a body declared over 50 MB before reading it (413)", async () => {
    const { response, body, bytesPulled } = await upload(
      [{ name: "file", filename: "big.mp4", data: lazyBytes(mp4Head(), 60 * MB) }],
      alice.cookie,
      {
        "Content-Length": String(60 * MB),
      },
    );
    expect(response.status).toBe(413);
    expect(body.error).toMatch(/50MB/);
    expect(bytesPulled()).toBeLessThan(1 * MB);
  });

  it("refuses a 51 MB stream with 413 while it streams, keeping nothing and holding little memory", async () => {
    const before = await mediaCount();
    const files = storedFiles().length;
    const { response, body, bytesPulled } = await upload([{ name: "file", filename: "long.mp4", data: lazyBytes(mp4Head(), 51 * MB) }]);
    expect(response.status).toBe(413);
    expect(body.error).toBe("File is too large. The limit is 50MB per file.");
    expect(bytesPulled()).toBeGreaterThan(50 * MB);
    expect(await mediaCount()).toBe(before);
    expect(storedFiles().length).toBe(files);
  });

  it("streams a 50 MB video to storage without holding it in memory", async () => {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const { response, body } = await upload([{ name: "file", filename: "rut.mp4", data: lazyBytes(mp4Head(), 50 * MB) }]);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(response.status).toBe(201);
    const row = first(await db.select().from(media).where(eq(media.url, body.url)))!;
    expect(row.size).toBe(50 * MB);
    const growth = (peak - baseline) / MB;
    console.log(`RSS growth while streaming 50 MB: ${growth.toFixed(1)} MB`);
    expect(growth).toBeLessThan(25);
  });
});

describe("GET /media/*", () => {
  let videoUrl: string;
  const size = 300_000;

  beforeAll(async () => {
    const { body } = await upload([{ name: "file", filename: "seek.mp4", data: lazyBytes(mp4Head(), size) }]);
    videoUrl = body.url;
  });

  it("serves with the stored type, a year of caching and validators", async () => {
    const response = await getMedia(videoUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("video/mp4");
    expect(response.headers.get("Content-Length")).toBe(String(size));
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("ETag")).toMatch(/^".+"$/);
    expect(response.headers.get("Last-Modified")).toBeTruthy();
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect((await response.arrayBuffer()).byteLength).toBe(size);
  });

  it("answers revalidation with 304", async () => {
    const first = await getMedia(videoUrl);
    const etag = first.headers.get("ETag")!;
    expect((await getMedia(videoUrl, { "If-None-Match": etag })).status).toBe(304);
    expect((await getMedia(videoUrl, { "If-Modified-Since": first.headers.get("Last-Modified")! })).status).toBe(304);
    expect((await getMedia(videoUrl, { "If-None-Match": '"other"' })).status).toBe(200);
  });

  it("serves byte ranges (206) and refuses ranges past the end (416)", async () => {
    const whole = Buffer.from(await (await getMedia(videoUrl)).arrayBuffer());

    const part = await getMedia(videoUrl, { Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 100-199/${size}`);
    expect(part.headers.get("Content-Length")).toBe("100");
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(100, 200))).toBe(true);

    const open = await getMedia(videoUrl, { Range: `bytes=${size - 10}-` });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(whole.subarray(size - 10))).toBe(true);

    const suffix = await getMedia(videoUrl, { Range: "bytes=-500" });
    expect(suffix.headers.get("Content-Range")).toBe(`bytes ${size - 500}-${size - 1}/${size}`);

    const past = await getMedia(videoUrl, { Range: `bytes=${size}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("Content-Range")).toBe(`bytes */${size}`);

    // A range for another version of the file (If-Range) gets the whole file.
    expect((await getMedia(videoUrl, { Range: "bytes=0-9", "If-Range": '"stale"' })).status).toBe(200);
    // HEAD: headers, no body.
    const head = await getMedia(videoUrl, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });

  it("parses ranges like RFC 9110", () => {
    expect(parseRange("bytes=0-0", 10)).toEqual({ kind: "range", range: { start: 0, end: 0 } });
    expect(parseRange("bytes=5-100", 10)).toEqual({ kind: "range", range: { start: 5, end: 9 } });
    expect(parseRange("bytes=-3", 10)).toEqual({ kind: "range", range: { start: 7, end: 9 } });
    expect(parseRange("bytes=10-", 10)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=0-1,3-4", 10)).toEqual({ kind: "none" });
    expect(parseRange("items=0-1", 10)).toEqual({ kind: "none" });
    expect(parseRange("bytes=5-2", 10)).toEqual({ kind: "none" });
  });

  it("never leaves the storage directory", async () => {
    fs.writeFileSync(path.join(path.dirname(path.resolve(env.UPLOAD_DIR)), "secret.jpg"), "secret");
    for (const key of ["../secret.jpg", "..%2Fsecret.jpg", "2026/../../secret.jpg", "/etc/passwd", ".hidden.jpg", "a/b\\..\\c.jpg"]) {
      const response = await call(mediaLoader, new Request("http://localhost:3000/media/x"), { "*": key });
      expect(response.status, key).toBe(404);
    }
    expect((await getMedia("/media/2026/11/not-there.jpg")).status).toBe(404);
  });
});

describe("ownership and attachment", () => {
  async function uploadAs(member: Member, width = 64) {
    const { body } = await upload([{ name: "file", filename: "p.png", data: await png(width, width) }], member.cookie);
    return body.url as string;
  }
  const postInput = (uploadedFiles: string[]) => ({
    title: "Trail camera haul",
    content: "Three bucks on the ridge camera this week.",
    type: "article" as const,
    uploadedFiles,
  });

  it("createPost attaches only the author's own, unattached uploads", async () => {
    const mine = await uploadAs(alice);
    const theirs = await uploadAs(bob);
    const postsBefore = (await db.select().from(posts)).length;

    // Someone else's upload: refused, and the whole post with it (nothing half-attached).
    await expect(createPost(alice, postInput([mine, theirs]))).rejects.toMatchObject({ status: 400 });
    await expect(createPost(alice, postInput(["/media/2026/01/made-up.jpg"]))).rejects.toMatchObject({ status: 400 });
    expect((await db.select().from(posts)).length).toBe(postsBefore);
    expect(first(await db.select().from(media).where(eq(media.url, mine)))!.postId).toBeNull();

    const post = await createPost(alice, postInput([mine]));
    expect(post.uploadedFiles).toEqual([expect.objectContaining({ url: mine, type: "image", name: "p.png" })]);
    expect(first(await db.select().from(media).where(eq(media.url, mine)))!.postId).toBe(post.id);

    // Already part of a post: not again.
    await expect(createPost(alice, postInput([mine]))).rejects.toMatchObject({ status: 400 });
  });

  it("lists a member's pending uploads for a form shown again, and nobody else's", async () => {
    const mine = await uploadAs(alice);
    const theirs = await uploadAs(bob);
    expect((await ownPendingUploads(alice, [mine, theirs])).map((f) => f.url)).toEqual([mine]);
    expect(await ownPendingUploads(null, [mine])).toEqual([]);
  });

  it("discards only the actor's own unattached uploads, files included", async () => {
    const mine = await uploadAs(alice);
    const theirs = await uploadAs(bob);
    await discardUploads(alice, [mine, theirs]);
    expect(first(await db.select().from(media).where(eq(media.url, mine)))).toBeUndefined();
    expect(first(await db.select().from(media).where(eq(media.url, theirs)))).toBeDefined();
    expect((await getMedia(mine)).status).toBe(404);
    expect((await getMedia(theirs)).status).toBe(200);
  });

  it("deleting a post deletes its files from storage, and only its author can", async () => {
    const { body } = await upload([{ name: "file", filename: "stand.jpg", data: await jpegWithGps(1200, 800) }]);
    const clip = await upload([{ name: "file", filename: "walk.mp4", data: mp4Head(50_000) }]);
    const post = await createPost(alice, postInput([body.url, clip.body.url]));
    const urls = [body.url, clip.body.url, ...body.variants.map((v: { url: string }) => v.url)];

    await expect(deletePost(null, post.id)).rejects.toMatchObject({ status: 401 });
    await expect(deletePost(bob, post.id)).rejects.toMatchObject({ status: 403 });
    for (const url of urls) expect((await getMedia(url)).status).toBe(200);

    await deletePost(alice, post.id);
    expect(first(await db.select().from(media).where(eq(media.url, body.url)))).toBeUndefined();
    for (const url of urls) expect((await getMedia(url)).status, url).toBe(404);
  });

  it("deleteMediaFiles removes a post's pictures and their variants from storage", async () => {
    const { body } = await upload([{ name: "file", filename: "big.jpg", data: await jpegWithGps(1200, 800) }]);
    const post = await createPost(alice, postInput([body.url]));
    const files = await mediaFilesOfPost(post.id);
    expect(files).toHaveLength(1);
    expect(files[0]!.variants).toHaveLength(3);
    await deleteMediaFiles(files);
    for (const url of [body.url, ...body.variants.map((v: { url: string }) => v.url)]) expect((await getMedia(url)).status).toBe(404);
  });
});

describe("readPostForm (the create page without JavaScript)", () => {
  it("replaces each file with its media URL and keeps the other fields", async () => {
    const { request } = multipartRequest(
      "/create",
      [
        { name: "title", value: "Opening morning" },
        { name: "files", filename: "a.png", data: await png(50, 50) },
        { name: "files", filename: "", data: Buffer.alloc(0) }, // an empty file input
        { name: "content", value: "Ten or more characters of content" },
        { name: "files", filename: "b.mp3", data: mp3Head() },
      ],
      { cookie: alice.cookie },
    );
    // readPostForm's own reading of the form, before it hands the URLs on as `uploadedFiles`.
    const { formData: form } = await parseMultipartUploads(request, alice, { fileFields: [POST_FILES_FIELD] });
    expect(form.get("title")).toBe("Opening morning");
    expect(form.get("content")).toBe("Ten or more characters of content");
    const urls = form.getAll("files");
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/^\/media\//);
  });

  it("on a refused file, keeps every typed field, stores nothing and names the file", async () => {
    const before = await mediaCount();
    const { request } = multipartRequest(
      "/create",
      [
        { name: "title", value: "Keep me" },
        { name: "files", filename: "ok.png", data: await png(50, 50) },
        { name: "files", filename: "bad.pdf", data: pdfHead() },
        { name: "content", value: "Typed after the file" },
        { name: "tags", value: "rut, bow hunting" },
      ],
      { cookie: alice.cookie },
    );
    const error = await readPostForm(request, alice).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadRefusedError);
    const refused = error as UploadRefusedError;
    expect(refused.status).toBe(415);
    expect(refused.fileName).toBe("bad.pdf");
    expect(refused.formData.get("title")).toBe("Keep me");
    expect(refused.formData.get("content")).toBe("Typed after the file");
    expect(refused.formData.get("tags")).toBe("rut, bow hunting");
    expect(refused.formData.getAll("files")).toEqual([]);
    expect(await mediaCount()).toBe(before);
  });

  it("keeps typed fields after an oversized file too (413)", async () => {
    const { request } = multipartRequest(
      "/create",
      [
        { name: "title", value: "Big one" },
        { name: "files", filename: "huge.mp4", data: lazyBytes(mp4Head(), 51 * MB) },
        { name: "content", value: "Still here" },
      ],
      { cookie: alice.cookie },
    );
    const error = (await readPostForm(request, alice).catch((e: unknown) => e)) as UploadRefusedError;
    expect(error.status).toBe(413);
    expect(error.formData.get("content")).toBe("Still here");
  });

  it("refuses files from a visitor (401)", async () => {
    const { request } = multipartRequest("/create", [{ name: "files", filename: "a.png", data: await png(10, 10) }]);
    await expect(readPostForm(request, null)).rejects.toMatchObject({ status: 401 });
  });
});

describe("the create page's action (/create)", () => {
  const fields = (title: string, content = "A cold front pushed them out of the bedding early.") => [
    { name: "title", value: title },
    { name: "type", value: "article" },
    { name: "content", value: content },
  ];
  const latestPost = async () => first(await db.select().from(posts).orderBy(desc(posts.id)))!;

  it("stores the plain form's files and attaches them to the new post", async () => {
    const { request } = multipartRequest(
      "/create",
      [...fields("Plain form photo"), { name: "files", filename: "plot.jpg", data: await jpegWithGps(900, 600) }],
      { cookie: alice.cookie },
    );
    const response = await call(createAction, request);
    expect(response.status).toBe(302);
    const post = await latestPost();
    expect(response.headers.get("Location")).toBe(`/post/${post.id}`);
    const files = await db.select().from(media).where(eq(media.postId, post.id));
    expect(files.map((f) => [f.name, f.kind, f.ownerId])).toEqual([["plot.jpg", "image", alice.id]]);
  });

  it("answers a refused file with everything typed and the reason, storing nothing", async () => {
    const before = await mediaCount();
    const postsBefore = (await db.select().from(posts)).length;
    const { request } = multipartRequest(
      "/create",
      [...fields("Refused but kept"), { name: "files", filename: "map.pdf", data: pdfHead() }, { name: "tags", value: "scouting" }],
      { cookie: alice.cookie },
    );
    const response = await call(createAction, request);
    expect(response.status).toBe(415);
    const body = await response.json();
    expect(body.error[""]).toEqual([expect.stringMatching(/^Failed to upload map\.pdf: Unsupported file type/)]);
    expect(body.initialValue).toMatchObject({ title: "Refused but kept", tags: "scouting" });
    expect(await mediaCount()).toBe(before);
    expect((await db.select().from(posts)).length).toBe(postsBefore);
  });

  it("gives back the files it stored when the rest of the form is invalid", async () => {
    const { request } = multipartRequest(
      "/create",
      [...fields("Too short", "short"), { name: "files", filename: "kept.png", data: await png(40, 40) }],
      { cookie: alice.cookie },
    );
    const response = await call(createAction, request);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.content).toEqual(["Content must be at least 10 characters"]);
    expect(body.uploads).toEqual([expect.objectContaining({ name: "kept.png", type: "image" })]);
    // Sending them back (ticked boxes) publishes them.
    const { request: again } = multipartRequest(
      "/create",
      [...fields("Second try"), { name: "uploadedFiles", value: body.uploads[0].url }],
      { cookie: alice.cookie },
    );
    expect((await call(createAction, again)).status).toBe(302);
    expect(first(await db.select().from(media).where(eq(media.url, body.uploads[0].url)))!.postId).toBe((await latestPost()).id);
  });

  it("stores the media URL's preview with the post, fetched on the server", async () => {
    const url = "https://www.deercamp.example/rattling";
    const metadata = {
      title: "Rattling sequences",
      description: "What works",
      image: "https://www.deercamp.example/a.jpg",
      siteName: "Deer Camp",
      domain: "deercamp.example",
    };
    // A fresh cache entry stands in for the site (the SSRF guard keeps tests off the network).
    await db.insert(linkPreviews).values({ url, data: metadata, fetchedAt: new Date() });
    const { request } = multipartRequest(
      "/create",
      [
        ...fields("With a link"),
        { name: "mediaUrl", value: url },
        { name: "urlMetadata", value: JSON.stringify({ title: "Spoofed by the client" }) },
      ],
      { cookie: alice.cookie },
    );
    expect((await call(createAction, request)).status).toBe(302);
    expect((await latestPost()).urlMetadata).toEqual(metadata);
  });
});

describe("POST /api/fetch-url-metadata", () => {
  it("is open to visitors (issue 14 #12), keeps the SSRF guard, and validates the URL (400)", async () => {
    // Before issue 14 a visitor got 401 here and saw bare links where members saw preview cards.
    const visitor = await call(
      fetchMetadataAction,
      makeRequest("/api/fetch-url-metadata", { json: { url: "http://169.254.169.254/latest/meta-data/" } }),
    );
    expect(visitor.status).toBe(200);
    expect(await visitor.json()).toEqual({ error: "This address cannot be previewed" });
    const bad = await call(
      fetchMetadataAction,
      makeRequest("/api/fetch-url-metadata", { json: { url: "javascript:alert(1)" }, cookie: alice.cookie }),
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).fieldErrors.url).toEqual(["Invalid URL format"]);
  });

  it("limits a visitor by address and a member by id (429)", async () => {
    limitsOn();
    try {
      const { limit } = LIMITS.linkPreviewsPerIp;
      // Each ask names a new URL: only fetches the server starts count, a cached preview is free.
      let n = 0;
      const ask = (address: string, cookie?: string) =>
        call(
          fetchMetadataAction,
          makeRequest("/api/fetch-url-metadata", {
            json: { url: `http://10.0.0.1/visitor-limit-${++n}` },
            cookie,
            headers: { [PEER_ADDRESS_HEADER]: address },
          }),
        );
      for (let i = 0; i < limit; i++) expect((await ask("203.0.113.9")).status).toBe(200);
      expect((await ask("203.0.113.9")).status).toBe(429);
      expect((await ask("203.0.113.10")).status).toBe(200); // another address
      expect((await ask("203.0.113.9", alice.cookie)).status).toBe(200); // a member counts by id
    } finally {
      limitsOff();
    }
  });

  it("answers 200 { error } for an address it will not fetch", async () => {
    const response = await call(
      fetchMetadataAction,
      makeRequest("/api/fetch-url-metadata", { json: { url: "http://169.254.169.254/latest/meta-data/" }, cookie: alice.cookie }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ error: "This address cannot be previewed" });
  });
});

describe("S3 storage behind the app (s3rver)", () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  beforeAll(async () => {
    s3 = await startS3rver();
    setStorage(createS3Storage(s3.options));
  });
  afterEach(() => undefined);
  afterAll(async () => {
    setStorage(null);
    await s3.close();
  });

  it("uploads stream to the bucket and are served through /media/ with ranges", async () => {
    expect(getStorage().kind).toBe("s3");
    const photo = await upload([{ name: "file", filename: "cam.jpg", data: await jpegWithGps(800, 600) }]);
    expect(photo.response.status).toBe(201);
    const stored = await fetch(`${s3.endpoint}/${s3.bucket}/${photo.body.url.replace("/media/", "")}`);
    expect(stored.status).toBe(200);
    expect((await sharp(Buffer.from(await stored.arrayBuffer())).metadata()).exif).toBeUndefined();

    const size = 6 * MB + 17; // more than one multipart part
    const video = await upload([{ name: "file", filename: "walk.mp4", data: lazyBytes(mp4Head(), size) }]);
    expect(video.response.status).toBe(201);
    const ranged = await getMedia(video.body.url, { Range: "bytes=0-99" });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("Content-Range")).toBe(`bytes 0-99/${size}`);
    expect(ranged.headers.get("Content-Type")).toBe("video/mp4");
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);

    const tooBig = await upload([{ name: "file", filename: "huge.mp4", data: lazyBytes(mp4Head(), 51 * MB) }]);
    expect(tooBig.response.status).toBe(413);
    const list = await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2`).then((r) => r.text());
    expect(list.match(/<Key>/g)?.length).toBe(5); // the photo, its 480 / 1080 / 1440 variants (the last two 800 px), the video
  });
});
