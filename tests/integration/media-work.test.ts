import { spawn } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { media, rateLimits } from "#db/schema";
import { action as uploadAction } from "~/routes/api.upload";
import { action as clubCreateAction } from "~/routes/clubs.$id/create-post";
import { action as createAction } from "~/routes/create";
import { action as settingsAction } from "~/routes/settings/route";
import { storeUpload } from "~/models/media/media.server";
import { db } from "~/utils/db.server";
import { IMAGE_QUEUE, imageQueue } from "~/utils/media/media-processing.server";
import { newClub } from "#tests/fixtures/clubs";
import { call, createMember } from "#tests/fixtures/members";
import { hostileGif, jpegWithGps, multipartRequest, multipartStream, png, storedFiles, streamToBuffer } from "#tests/fixtures/media";
import { limitsOff, limitsOn } from "#tests/fixtures/limits-clock";

/**
 * Issue 11, "Media cannot stall the site" (security.md M4): animations are capped by frames and
 * pixels before decoding, image work is queued and time-limited, and four hostile GIFs at once do
 * not stall other requests. The same pipeline takes avatars.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let alice: Member;

beforeAll(async () => {
  alice = await createMember();
});

const mediaCount = async () => (await db.select().from(media)).length;

/** The text fields of the post editor. */
const postFields = (title: string, content = "Straight off the trail camera card.") => [
  { name: "title", value: title },
  { name: "type", value: "article" },
  { name: "content", value: content },
];

/** The audit's anim96mp.gif: 24 frames of 2000×2000, under a kilobyte here (90 KB there). */
const HOSTILE = () => hostileGif(2000, 2000, 24);

describe("hostile animations are refused before they cost anything", () => {
  it("POST /api/upload answers 413 with the reason read from the header, storing nothing", async () => {
    const [rows, files] = [await mediaCount(), storedFiles().length];
    const { request } = multipartRequest(
      "/api/upload",
      [{ name: "file", filename: "anim96mp.gif", contentType: "image/gif", data: HOSTILE() }],
      {
        cookie: alice.cookie,
      },
    );
    const response = await call(uploadAction, request);
    expect(response.status).toBe(413);
    expect((await response.json()).error).toMatch(/24 frames of 2000×2000 add up to more than 50 megapixels/);
    expect([await mediaCount(), storedFiles().length]).toEqual([rows, files]);
  });

  it("an avatar takes the same path: refused with a toast, nothing stored", async () => {
    const rows = await mediaCount();
    const { request } = multipartRequest(
      "/settings",
      [
        { name: "returnTo", value: "/settings?tab=profile" },
        { name: "avatar", filename: "anim96mp.gif", contentType: "image/gif", data: HOSTILE() },
      ],
      { cookie: alice.cookie },
    );
    const response = await call(settingsAction, request);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings?tab=profile");
    expect(await mediaCount()).toBe(rows);
  });
});

/** Starts tests/integration/media-load.worker.ts; resolves with its port and a member's cookie. */
function startServer(extraEnv: Record<string, string> = {}) {
  const root = path.resolve(__dirname, "../..");
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/integration/media-load.worker.ts")], {
    cwd: root,
    env: { ...process.env, ...extraEnv },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const ready = new Promise<{ port: number; cookie: string }>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!));
    });
    child.on("close", () => reject(new Error(`server exited early: ${out} ${err}`)));
  });
  return { ready, stop: () => child.kill() };
}

describe("four hostile GIFs at once leave other requests answering (spawned server on 127.0.0.1)", () => {
  it("every GET /api/posts/trending made meanwhile answers well under 2 s, and the uploads are refused", async () => {
    const server = startServer();
    try {
      const { port, cookie } = await server.ready;
      const base = `http://127.0.0.1:${port}`;
      const upload = async () => {
        const { body, contentType } = multipartStream([
          { name: "file", filename: "anim96mp.gif", contentType: "image/gif", data: HOSTILE() },
        ]);
        const bytes = await streamToBuffer(body);
        const res = await fetch(`${base}/api/upload`, {
          method: "POST",
          headers: { "Content-Type": contentType, Cookie: cookie, Origin: base },
          body: new Uint8Array(bytes),
        });
        return res.status;
      };
      const timedGet = async () => {
        const started = performance.now();
        const res = await fetch(`${base}/api/posts/trending`);
        await res.arrayBuffer();
        return { status: res.status, ms: performance.now() - started };
      };
      expect((await timedGet()).status).toBe(200);

      const uploads = Promise.all([upload(), upload(), upload(), upload()]);
      let finished = false;
      void uploads.finally(() => (finished = true));
      const gets: Array<{ status: number; ms: number }> = [];
      // Keep asking while the uploads run (at least five times, at most for 20 s).
      const deadline = performance.now() + 20_000;
      while ((!finished || gets.length < 5) && performance.now() < deadline) {
        gets.push(await timedGet());
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const statuses = await uploads;

      expect(statuses).toEqual([413, 413, 413, 413]);
      expect(gets.every((g) => g.status === 200)).toBe(true);
      // Before the fix, a GET waited up to 16 s behind the four uploads.
      expect(Math.max(...gets.map((g) => g.ms))).toBeLessThan(1500);
    } finally {
      server.stop();
    }
  }, 60_000);
});

describe("file names with '=' upload fine (security.md L13)", () => {
  it("POST /api/upload stores a=b.png, my=photo.jpg, x.png?v=1 and =.png under their own names (201)", async () => {
    for (const name of ["a=b.png", "my=photo.jpg", "x.png?v=1", "=.png", "semi;colon 100%.png"]) {
      const data = name.endsWith(".jpg") ? await jpegWithGps(60, 40) : await png(40, 40);
      const { request } = multipartRequest("/api/upload", [{ name: "file", filename: name, data }], { cookie: alice.cookie });
      const response = await call(uploadAction, request);
      expect(response.status, name).toBe(201);
      expect((await response.json()).name).toBe(name);
    }
  });

  it("the create page's plain form publishes a file named my=photo.jpg with the post", async () => {
    const { request } = multipartRequest(
      "/create",
      [...postFields("Equals in the name"), { name: "files", filename: "my=photo.jpg", data: await jpegWithGps(60, 40) }],
      { cookie: alice.cookie },
    );
    const response = await call(createAction, request);
    expect(response.status).toBe(302);
    const postId = Number(response.headers.get("Location")!.split("/").pop());
    expect((await db.select().from(media).where(eq(media.postId, postId))).map((m) => m.name)).toEqual(["my=photo.jpg"]);
  });
});

describe("a post refused after all keeps none of its files (security.md L12)", () => {
  const fields = postFields("Not my club", "Trying to post where I am no member.");
  const uploadsCounted = async (member: Member) =>
    (
      await db
        .select({ count: rateLimits.count })
        .from(rateLimits)
        .where(eq(rateLimits.key, `uploadsPerUser:${member.id}`))
    ).reduce((n, r) => n + r.count, 0);

  let clubId: number;
  beforeAll(async () => {
    clubId = (await newClub(await createMember())).id;
  });
  afterEach(() => limitsOff());

  it("/clubs/:id/create by a non-member: 403 before the file is read, nothing stored or counted", async () => {
    limitsOn();
    const [rows, files, counted] = [await mediaCount(), storedFiles().length, await uploadsCounted(alice)];
    const photo = await jpegWithGps(1600, 1200);
    const { request, bytesPulled } = multipartRequest(
      `/clubs/${clubId}/create`,
      [...fields, { name: "files", filename: "stand.jpg", data: photo }],
      {
        cookie: alice.cookie,
      },
    );
    const response = await call(clubCreateAction, request, { id: String(clubId) });
    expect(response.status).toBe(403);
    expect([await mediaCount(), storedFiles().length, await uploadsCounted(alice)]).toEqual([rows, files, counted]);
    expect(bytesPulled()).toBeLessThan(photo.byteLength);
  });

  it("/create naming that club after the file: 403, and the stored file is removed and not counted", async () => {
    limitsOn();
    const [rows, files, counted] = [await mediaCount(), storedFiles().length, await uploadsCounted(alice)];
    const { request } = multipartRequest(
      "/create",
      [...fields, { name: "files", filename: "stand.jpg", data: await jpegWithGps(1600, 1200) }, { name: "clubId", value: String(clubId) }],
      { cookie: alice.cookie },
    );
    const response = await call(createAction, request);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: "Only members can post in this club" });
    expect([await mediaCount(), storedFiles().length, await uploadsCounted(alice)]).toEqual([rows, files, counted]);
  });

  it("an invalid form still keeps its files (and their count), so the member need not upload them again", async () => {
    limitsOn();
    const [rows, counted] = [await mediaCount(), await uploadsCounted(alice)];
    const { request } = multipartRequest(
      "/create",
      [...postFields("", "short"), { name: "files", filename: "kept.png", data: await png(40, 40) }],
      { cookie: alice.cookie },
    );
    const response = await call(createAction, request);
    expect(response.status).toBe(400);
    expect((await response.json()).uploads).toEqual([expect.objectContaining({ name: "kept.png" })]);
    expect([await mediaCount(), await uploadsCounted(alice)]).toEqual([rows + 1, counted + 1]);
  });
});

type Gate = { open: () => void; done: Promise<unknown> };
/** Holds every running place of the image queue until opened. */
function holdQueue(): Gate[] {
  return Array.from({ length: IMAGE_QUEUE.concurrency }, (_, i) => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    return { open, done: imageQueue.run(() => gate, { key: `test-gate:${i}` }) };
  });
}

/**
 * security-2 N7 and N10: the image queue is shared fairly between members, and an upload waiting in
 * it is dropped when its request goes away (docs/decisions/0052-fair-image-queue.md).
 */
describe("the image queue takes each member in turn (security-2 N7)", () => {
  async function* bytes(data: Buffer) {
    yield data;
  }
  /** The key of each image job as it starts. */
  function recordStarts(): { keys: string[]; restore: () => void } {
    const keys: string[] = [];
    const original = imageQueue.run;
    imageQueue.run = function (this: typeof imageQueue, job, options) {
      return original.call(this, () => (keys.push(options?.key ?? ""), job()), options);
    } as typeof imageQueue.run;
    return { keys, restore: () => (imageQueue.run = original) };
  }

  it("one member's uploads past their share get 429 with Retry-After, another member's is taken and processed before the first member's later ones", async () => {
    const bob = await createMember();
    const picture = await png(64, 64);
    const starts = recordStarts();
    const gates = holdQueue();
    try {
      const rows = await mediaCount();
      const alices = Array.from({ length: IMAGE_QUEUE.perMember }, (_, i) =>
        storeUpload(alice, { filename: `a${i}.png`, data: bytes(picture) }),
      );
      await vi.waitFor(() => expect(imageQueue.load.waiting).toBe(IMAGE_QUEUE.perMember));

      // Alice's next upload is hers to retry; it is not stored and does not count.
      const { request } = multipartRequest(
        "/api/upload",
        [{ name: "file", filename: "more.png", contentType: "image/png", data: picture }],
        {
          cookie: alice.cookie,
        },
      );
      const refused = await call(uploadAction, request);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect((await refused.json()).error).toMatch(/still being processed.*try this one again in a moment/i);

      // Bob is still taken while Alice's share is full.
      const bobs = storeUpload(bob, { filename: "b.png", data: bytes(picture) });
      await vi.waitFor(() => expect(imageQueue.load.waiting).toBe(IMAGE_QUEUE.perMember + 1));

      for (const gate of gates) gate.open();
      await Promise.all([...alices, bobs, ...gates.map((g) => g.done)]);
      const order = starts.keys.filter((k) => k.startsWith("member:"));
      expect(order).toHaveLength(IMAGE_QUEUE.perMember + 1);
      expect(order.indexOf(`member:${bob.id}`)).toBeLessThan(order.lastIndexOf(`member:${alice.id}`));
      expect(order.indexOf(`member:${bob.id}`)).toBeLessThanOrEqual(IMAGE_QUEUE.concurrency);
      // Every taken upload is stored; the refused one is not.
      expect(await mediaCount()).toBe(rows + IMAGE_QUEUE.perMember + 1);
    } finally {
      starts.restore();
      for (const gate of gates) gate.open();
    }
  });
});

describe("an upload whose request is gone is not stored (security-2 N10)", () => {
  /**
   * With every running place of the queue held, starts an upload with a signal, aborts it while it
   * waits, then frees the queue. Returns how the upload settled, and asserts nothing was stored.
   */
  async function abortWhileQueued<T>(start: (signal: AbortSignal) => Promise<T>): Promise<T | Error> {
    const gates = holdQueue();
    const open = () => gates.forEach((gate) => gate.open());
    try {
      const [rows, files] = [await mediaCount(), storedFiles().length];
      const controller = new AbortController();
      const settled = start(controller.signal).catch((error: Error) => error);
      await vi.waitFor(() => expect(imageQueue.load.waiting).toBe(1));
      controller.abort();
      open();
      await Promise.all(gates.map((gate) => gate.done));
      const outcome = await settled;
      expect([await mediaCount(), storedFiles().length]).toEqual([rows, files]);
      return outcome;
    } finally {
      open();
    }
  }

  it("storeUpload: aborted while it waits for the queue, it is dropped; no row, no file", async () => {
    const picture = await png(64, 64);
    const data = (async function* () {
      yield picture;
    })();
    const outcome = await abortWhileQueued((signal) => storeUpload(alice, { filename: "gone.png", data }, { signal }));
    expect(outcome instanceof Error ? outcome.name : "stored").toBe("AbandonedError");
  });

  it("POST /api/upload: the request's signal reaches the queue, so a client that left is not stored", async () => {
    const picture = await png(64, 64);
    const { request } = multipartRequest("/api/upload", [{ name: "file", filename: "gone.png", contentType: "image/png", data: picture }], {
      cookie: alice.cookie,
    });
    const answer = await abortWhileQueued((signal) => call(uploadAction, new Request(request, { signal, duplex: "half" } as RequestInit)));
    expect(answer instanceof Response ? answer.status : "thrown").not.toBe(201);
  });
});

describe("a queued upload is answered before the idle timeout, and one whose client left is not stored (spawned server, security-2 N10)", () => {
  it("503 with Retry-After instead of a silent close; an aborted upload is dropped; neither is stored", async () => {
    // An idle timeout of 2 s: the queue's bounded wait (1 s here) must answer before it.
    const server = startServer({ IDLE_TIMEOUT_MS: "2000" });
    try {
      const { port, cookie } = await server.ready;
      const base = `http://127.0.0.1:${port}`;
      const control = async (what: "hold" | "release" | "load") =>
        (await (await fetch(`${base}/test/${what}`, { method: "POST" })).json()) as { running: number; waiting: number };
      const picture = await png(64, 64);
      const upload = async (signal?: AbortSignal) => {
        const { body, contentType } = multipartStream([{ name: "file", filename: "queued.png", contentType: "image/png", data: picture }]);
        const bytes = await streamToBuffer(body);
        return fetch(`${base}/api/upload`, {
          method: "POST",
          headers: { "Content-Type": contentType, Cookie: cookie, Origin: base },
          body: new Uint8Array(bytes),
          signal,
        });
      };
      const rows = await mediaCount();
      await control("hold");

      const answered = await upload().then(
        async (res) => ({
          status: res.status,
          retryAfter: res.headers.get("Retry-After"),
          error: ((await res.json()) as { error: string }).error,
        }),
        () => ({ status: "closed with no answer" }),
      );
      expect(answered).toMatchObject({ status: 503, error: expect.stringMatching(/busy with other images/) });
      expect(Number((answered as { retryAfter: string }).retryAfter)).toBeGreaterThan(0);

      const controller = new AbortController();
      const gone = upload(controller.signal).catch(() => null);
      await vi.waitFor(async () => expect((await control("load")).waiting).toBe(1));
      controller.abort();
      await gone;
      await vi.waitFor(async () => expect((await control("load")).waiting).toBe(0));

      await control("release");
      await vi.waitFor(async () => expect(await control("load")).toEqual({ running: 0, waiting: 0 }));
      expect(await mediaCount()).toBe(rows);
    } finally {
      server.stop();
    }
  }, 60_000);
});
