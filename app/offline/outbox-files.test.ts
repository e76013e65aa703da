import { describe, expect, it } from "vitest";
import { enqueue, type OutboxFile, type OutboxItem } from "./outbox";
import { flush, MAX_QUEUED_BYTES, refuseQueuedFiles, replayRequest, type UploadOne } from "./outbox-wire";
import { OUTBOX_CHUNK_BYTES, uploadOutboxFile, type UploadOutcome } from "./outbox-upload";
import { memoryStore } from "#tests/fixtures/outbox";

/** A post written with no signal that carries its photos (ADR 0093), over an in-memory store. */

const T = Date.now();
const MB = 1024 * 1024;

function photo(name: string, size = 1000): OutboxFile {
  return { name, type: "image/jpeg", blob: new Blob([new Uint8Array(size).fill(7)], { type: "image/jpeg" }) };
}

function post(over: Partial<OutboxItem> = {}): OutboxItem {
  return {
    format: 2,
    key: "post-key",
    memberId: 1,
    call: {
      method: "POST",
      path: "/api/posts",
      json: { title: "Two does at the scrape", content: "Both on the trail cam at dawn.", type: "article" },
    },
    fields: [
      ["title", "Two does at the scrape"],
      ["content", "Both on the trail cam at dawn."],
      ["idempotencyKey", "post-key"],
    ],
    intent: "create-post",
    page: "/create",
    label: "Post “Two does at the scrape”",
    draft: "post-create",
    queuedAt: T,
    state: "waiting",
    files: [photo("a.jpg"), photo("b.jpg")],
    ...over,
  };
}

/** /api/posts keeping idempotency keys (CONTRACT.md §6): what each new key made, with its files. */
function postsApi() {
  const made: Array<{ title: string; uploadedFiles: unknown }> = [];
  const keys = new Set<string>();
  return {
    made,
    send: async (item: OutboxItem) => {
      const request = replayRequest(item, "http://localhost");
      const body = (await request.json()) as { title: string; uploadedFiles?: unknown };
      const key = request.headers.get("Idempotency-Key")!;
      if (!keys.has(key)) {
        keys.add(key);
        made.push({ title: body.title, uploadedFiles: body.uploadedFiles });
      }
      return new Response(JSON.stringify({ id: 1 }), { status: 201 });
    },
  };
}

/** An uploader that stores each file by name, and can fail the next uploads for want of a signal. */
function uploader() {
  const uploads: string[] = [];
  let failNext = 0;
  const upload: UploadOne = async (file, hooks): Promise<UploadOutcome> => {
    uploads.push(file.name);
    if (!file.uploadUrl) await hooks.keepUrl(`/api/uploads/${file.name}`);
    if (failNext > 0) {
      failNext -= 1;
      return { retry: true };
    }
    return { stored: { type: "image", url: `/media/${file.name}`, name: file.name } };
  };
  return { uploads, upload, failNext: (count: number) => (failNext = count) };
}

describe("a post waiting with its photos", () => {
  it("uploads both files, then publishes the post once with both, and forgets the files", async () => {
    const store = memoryStore();
    await store.setMember(1);
    await enqueue(
      store,
      post({ call: { method: "POST", path: "/api/posts", json: { title: "T", uploadedFiles: ["/media/earlier.jpg"] } } }),
    );
    const api = postsApi();
    const files = uploader();
    const report = await flush(store, api.send, Date.now, files.upload);
    expect(files.uploads).toEqual(["a.jpg", "b.jpg"]);
    expect(api.made).toEqual([{ title: "T", uploadedFiles: ["/media/earlier.jpg", "/media/a.jpg", "/media/b.jpg"] }]);
    expect(report.sent.map((item) => item.key)).toEqual(["post-key"]);
    expect(store.items.size).toBe(0);
    // A second sender (the worker, another tab) finds nothing left to send.
    await flush(store, api.send, Date.now, files.upload);
    expect(api.made).toHaveLength(1);
  });

  it("keeps what went up when the signal drops, and the next run uploads only the rest, resuming its upload", async () => {
    const store = memoryStore();
    await store.setMember(1);
    await enqueue(store, post());
    const api = postsApi();
    const files = uploader();
    // a.jpg goes up; b.jpg's upload is created, then the link drops.
    let calls = 0;
    const flaky: UploadOne = async (file, hooks) => {
      calls += 1;
      if (calls === 2) {
        await hooks.keepUrl("/api/uploads/b-started");
        return { retry: true };
      }
      return files.upload(file, hooks);
    };
    const first = await flush(store, api.send, Date.now, flaky);
    expect(first.stopped).toBe(true);
    expect(api.made).toHaveLength(0);
    const kept = store.items.get("post-key")!;
    expect(kept.files?.map((file) => [file.name, file.stored?.url, file.uploadUrl])).toEqual([
      ["a.jpg", "/media/a.jpg", "/api/uploads/a.jpg"],
      ["b.jpg", undefined, "/api/uploads/b-started"],
    ]);
    // The bytes are still there to resume from (IndexedDB keeps the Blob).
    expect(kept.files?.[1].blob.size).toBe(1000);

    const resumedWith: Array<string | undefined> = [];
    await flush(store, api.send, Date.now, async (file, hooks) => {
      resumedWith.push(file.uploadUrl);
      return files.upload(file, hooks);
    });
    expect(resumedWith).toEqual(["/api/uploads/b-started"]);
    expect(api.made).toEqual([{ title: "Two does at the scrape", uploadedFiles: ["/media/a.jpg", "/media/b.jpg"] }]);
    expect(store.items.size).toBe(0);
  });

  it("a sender that cannot upload (no uploader) leaves the post for one that can", async () => {
    const store = memoryStore();
    await store.setMember(1);
    await enqueue(store, post());
    const api = postsApi();
    const report = await flush(store, api.send);
    expect(report.stopped).toBe(true);
    expect(api.made).toHaveLength(0);
    expect(store.items.has("post-key")).toBe(true);
  });

  it("cancelled while its photos upload: nothing is published", async () => {
    const store = memoryStore();
    await store.setMember(1);
    await enqueue(store, post());
    const api = postsApi();
    const report = await flush(store, api.send, Date.now, async (file, hooks) => {
      await store.remove("post-key");
      expect(await hooks.wanted()).toBe(false);
      return { refused: "Cancelled" };
    });
    expect(api.made).toHaveLength(0);
    expect(store.items.size).toBe(0);
    expect(report.sent).toHaveLength(0);
  });

  it("a file the server refuses gives the post up with the server's reason, kept for the member to see", async () => {
    const store = memoryStore();
    await store.setMember(1);
    await enqueue(store, post());
    const api = postsApi();
    await flush(store, api.send, Date.now, async () => ({ refused: "Only images, videos and audio files can be uploaded." }));
    expect(api.made).toHaveLength(0);
    expect(store.items.get("post-key")).toMatchObject({ state: "gave-up", error: "Only images, videos and audio files can be uploaded." });
  });

  it("Publish pressed again (same key, or the same draft after a reload) keeps the photos that waited", async () => {
    const store = memoryStore();
    await enqueue(store, post());
    await enqueue(store, post({ files: undefined }));
    expect(store.items.get("post-key")?.files?.map((file) => file.name)).toEqual(["a.jpg", "b.jpg"]);
    await enqueue(store, post({ key: "new-key", files: undefined }));
    expect([...store.items.keys()]).toEqual(["new-key"]);
    expect(store.items.get("new-key")?.files).toHaveLength(2);
  });

  it("checks the upload limits before keeping files", () => {
    const limits = { uploaded: 0, waitingBytes: 0, maxFileBytes: 50 * MB, maxFileLabel: "50MB" };
    const ok = { name: "a.jpg", size: MB, type: "image/jpeg" };
    expect(refuseQueuedFiles([ok, ok], limits)).toBeNull();
    expect(refuseQueuedFiles([{ ...ok, size: 51 * MB }], limits)).toBe("a.jpg is too large. The limit is 50MB per file.");
    expect(refuseQueuedFiles([{ ...ok, name: "notes.pdf", type: "application/pdf" }], limits)).toBe(
      "notes.pdf is not an image, video or audio file.",
    );
    expect(refuseQueuedFiles([ok, ok], { ...limits, uploaded: 19 })).toBe("A post takes at most 20 files.");
    expect(refuseQueuedFiles([ok], { ...limits, waitingBytes: MAX_QUEUED_BYTES })).toMatch(/too large to keep on this phone/);
  });
});

/**
 * A tus server in memory (the parts /api/uploads speaks): creation, HEAD, PATCH at the right offset,
 * the stored file in the finishing answer; it counts the bytes that reached it and can cut the link
 * once after some bytes (the PATCH fails, what arrived before the cut is kept, as the server's store does).
 */
function tusServer({ cutAfter = Infinity } = {}) {
  let offset = 0;
  let length = 0;
  let received = 0;
  let sent = 0;
  let cut = false;
  const requests: string[] = [];
  const fetcher = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const headers = new Headers(init.headers);
    requests.push(method);
    if (method === "POST") {
      length = Number(headers.get("Upload-Length"));
      return new Response(null, { status: 201, headers: { Location: "/api/uploads/u1" } });
    }
    if (method === "HEAD") return new Response(null, { status: 200, headers: { "Upload-Offset": String(offset) } });
    if (method === "PATCH") {
      if (Number(headers.get("Upload-Offset")) !== offset) return new Response(null, { status: 409 });
      const body = new Uint8Array(await (init.body as Blob).arrayBuffer());
      sent += body.length;
      if (!cut && received + body.length > cutAfter) {
        cut = true;
        const through = cutAfter - received;
        received += through;
        offset += through;
        throw new TypeError("Failed to fetch");
      }
      received += body.length;
      offset += body.length;
      const done = offset === length;
      return new Response(done ? JSON.stringify({ type: "image", url: "/media/u1.jpg", name: "big.jpg" }) : null, {
        status: done ? 200 : 204,
        headers: { "Upload-Offset": String(offset) },
      });
    }
    if (method === "DELETE") return new Response(null, { status: 204 });
    return new Response(JSON.stringify({ type: "image", url: "/media/u1.jpg", name: "big.jpg" }), { status: 200 });
  }) as typeof fetch;
  return { fetcher, received: () => received, sent: () => sent, requests };
}

describe("uploadOutboxFile", () => {
  it("a cut 8 MB photo resumes from the server's offset and sends under 1.1× its bytes", async () => {
    const server = tusServer({ cutAfter: 4 * MB + 100_000 });
    const file = photo("big.jpg", 8 * MB);
    const urls: Array<string | undefined> = [];
    const outcome = await uploadOutboxFile(file, {
      origin: "http://localhost",
      fetch: server.fetcher,
      keepUrl: async (url) => void urls.push(url),
      wanted: async () => true,
      retryDelays: [0, 0],
    });
    expect(outcome).toEqual({ stored: { type: "image", url: "/media/u1.jpg", name: "big.jpg" } });
    expect(urls).toEqual(["http://localhost/api/uploads/u1"]);
    // After the cut it asks where the server stands, and goes on from there.
    expect(server.requests).toContain("HEAD");
    expect(server.received()).toBe(8 * MB);
    expect(server.sent()).toBeLessThan(1.1 * 8 * MB);
    expect(server.requests.filter((r) => r === "POST")).toHaveLength(1);
  });

  it("an upload begun by an earlier run (a reload, the worker) is resumed, not started again", async () => {
    const server = tusServer({ cutAfter: 3 * OUTBOX_CHUNK_BYTES });
    const file = photo("big.jpg", 8 * OUTBOX_CHUNK_BYTES);
    const hooks = { origin: "http://localhost", fetch: server.fetcher, wanted: async () => true, retryDelays: [] };
    const first = await uploadOutboxFile(file, { ...hooks, keepUrl: async (url) => void (file.uploadUrl = url) });
    expect(first).toEqual({ retry: true });
    const second = await uploadOutboxFile(file, { ...hooks, keepUrl: async () => undefined });
    expect("stored" in second).toBe(true);
    expect(server.requests.filter((r) => r === "POST")).toHaveLength(1);
    expect(server.received()).toBe(8 * OUTBOX_CHUNK_BYTES);
  });

  it("stops sending once the member cancelled", async () => {
    const server = tusServer();
    const outcome = await uploadOutboxFile(photo("big.jpg", 4 * OUTBOX_CHUNK_BYTES), {
      origin: "http://localhost",
      fetch: server.fetcher,
      keepUrl: async () => undefined,
      wanted: async () => server.requests.length < 2,
    });
    expect(outcome).toEqual({ refused: "Cancelled" });
    expect(server.received()).toBe(OUTBOX_CHUNK_BYTES);
  });
});
