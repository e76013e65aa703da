import { MemoryLocker, type Locker } from "@tus/server";
import { beforeAll, describe, expect, it } from "vitest";
import { action as createAction } from "~/routes/api.uploads";
import { getResumableStore } from "~/utils/media/tus-store.server";
import { DatabaseLocker } from "~/utils/media/upload-lock.server";
import { handleTus } from "~/web/tus.server";
import { call, createMember } from "../fixtures/members";
import { jpegWithGps } from "../fixtures/media";

/**
 * Two app nodes behind one proxy, one database and one upload store (issue 25, docs/decisions/0062):
 * a client's PATCH stalls on node A (its connection is dead, but A still reads it), and the client
 * resumes on node B from the offset it last saw. B must not write until A has stopped, or A's late
 * bytes land in the upload after B's. Each node is `handleTus` with a locker of its own.
 */

const ORIGIN = "http://localhost:3000";
let cookie: string;

beforeAll(async () => {
  cookie = (await createMember()).cookie;
});

const b64 = (s: string) => Buffer.from(s).toString("base64");
const headers = (extra: Record<string, string>) => new Headers({ "Tus-Resumable": "1.0.0", Origin: ORIGIN, Cookie: cookie, ...extra });

function patchRequest(url: string, offset: number, body: ReadableStream<Uint8Array> | Uint8Array) {
  return new Request(`${ORIGIN}${url}`, {
    method: "PATCH",
    headers: headers({ "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" }),
    body,
    duplex: "half",
  } as RequestInit);
}

async function resumeOnAnotherNode(nodeA: Locker, nodeB: Locker) {
  const photo = await jpegWithGps(1200, 900);
  const created = await call(
    createAction,
    new Request(`${ORIGIN}/api/uploads`, {
      method: "POST",
      headers: headers({
        "Upload-Length": String(photo.length),
        "Upload-Metadata": `filename ${b64("buck.jpg")},filetype ${b64("image/jpeg")}`,
      }),
    }),
  );
  expect(created.status).toBe(201);
  const url = created.headers.get("Location")!;
  const id = url.split("/").pop()!;
  const half = Math.floor(photo.length / 2);

  // Node A: the first half arrives, then the connection goes quiet; what it still holds (bytes of
  // another try at the same offset, here a run of zeros) comes in only once B has answered.
  let lateBytes = () => {};
  const late = new Promise<void>((resolve) => (lateBytes = resolve));
  let sent = false;
  const stalled = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(photo.subarray(0, half));
        return;
      }
      await late;
      controller.enqueue(new Uint8Array(photo.length - half));
      controller.close();
    },
  });
  const events: string[] = [];
  const onA = handleTus(patchRequest(url, 0, stalled), nodeA).then((response) => {
    events.push("A answered");
    return response;
  });
  const store = getResumableStore();
  for (let i = 0; (await store.getUpload(id)).offset < half; i++) {
    if (i > 200) throw new Error("node A never stored the first half");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }

  // Node B: the client resumes from the offset it saw.
  const onB = handleTus(patchRequest(url, half, photo.subarray(half)), nodeB).then((response) => {
    events.push("B answered");
    return response;
  });
  void onB.finally(lateBytes);
  const [, fromB] = await Promise.all([onA, onB]);
  lateBytes();

  // A stopped (asked to by B's request) before B wrote: the upload is the photo, whole.
  expect(events).toEqual(["A answered", "B answered"]);
  expect(fromB.status).toBe(200);
  expect(await fromB.json()).toMatchObject({ type: "image", name: "buck.jpg", width: 1200, height: 900 });
}

describe("a resumable upload resumed on another app node while the first still reads the dead request", () => {
  it("waits on node B until node A has let go, then finishes the upload whole", async () => {
    await resumeOnAnotherNode(new DatabaseLocker({ name: "node-a", pollMs: 50 }), new DatabaseLocker({ name: "node-b", pollMs: 50 }));
  });

  it.fails("(with tus's MemoryLocker per process, node B writes while node A still holds the upload)", async () => {
    await resumeOnAnotherNode(new MemoryLocker(), new MemoryLocker());
  });
});
