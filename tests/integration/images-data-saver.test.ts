import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { media } from "#db/schema";
import { createMember } from "#tests/fixtures/members";
import { jpegWithGps, png } from "#tests/fixtures/media";
import { setDataSaver } from "~/models/members/data-saver.server";
import { storeUpload } from "~/models/media/media.server";
import { backfillVariants, variantWork } from "~/models/media/media-variants.server";
import { db, first } from "~/utils/db.server";
import { getStorage } from "~/utils/media/storage.server";
import { dataSaverFor, saveDataRequested } from "~/web/data-saver.server";
import { readSession, viewerKey } from "~/web/session.server";

/**
 * docs/decisions/0036-right-sized-images-and-data-saver.md: every image gets the 480 / 1080 / 1440
 * variants with their sizes, older uploads get what they lack from the start-up backfill, and data
 * saver (Save-Data: on, or the member's setting) is part of whom a page is drawn for.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
let alice: Member;
beforeAll(async () => {
  alice = await createMember();
});

async function* bytes(data: Buffer) {
  yield new Uint8Array(data);
}
const upload = async (data: Buffer, filename: string) => storeUpload(alice, { filename, data: bytes(data) });
const rowOf = async (url: string) => first(await db.select().from(media).where(eq(media.url, url)))!;

describe("image variants", () => {
  it("an upload gets 480 / 1080 / 1440 WebP variants with their sizes, never wider than the picture", async () => {
    const big = await upload(await jpegWithGps(1600, 1200), "big.jpg");
    expect(big.variants?.map((v) => v.width)).toEqual([480, 1080, 1440]);
    expect(big.variants?.every((v) => typeof v.size === "number" && v.size > 0)).toBe(true);
    expect(big.variants?.map((v) => v.url.replace(/^.*-/, ""))).toEqual(["480.webp", "1080.webp", "1440.webp"]);

    const small = await upload(await png(300, 200), "small.png");
    expect(small.variants?.map((v) => v.width)).toEqual([300, 300, 300]);
    expect(variantWork(await rowOf(small.url))).toEqual({ missing: [], unsized: false });
  });

  it("the backfill makes what an older upload lacks (a width, a size) and leaves finished ones alone", async () => {
    const storage = getStorage();
    const old = await upload(await jpegWithGps(1600, 1200), "old.jpg");
    // As stored before ADR 0036: 480 and 1080 only, without sizes.
    const row = await rowOf(old.url);
    const [v480, v1080, v1440] = row.variants!;
    await storage.delete(v1440!.key);
    const before = [v480!, v1080!].map(({ width, height, url, key }) => ({ width, height, url, key }));
    await db.update(media).set({ variants: before }).where(eq(media.id, row.id));
    // And a small picture that had none at all.
    const tiny = await upload(await png(300, 200), "tiny.png");
    const tinyRow = await rowOf(tiny.url);
    for (const v of tinyRow.variants!) await storage.delete(v.key);
    await db.update(media).set({ variants: null }).where(eq(media.id, tinyRow.id));
    expect(variantWork(await rowOf(old.url))).toEqual({ missing: [1440], unsized: true });

    expect(await backfillVariants(storage)).toBe(2);
    const after = (await rowOf(old.url)).variants!;
    expect(after.map((v) => v.width)).toEqual([480, 1080, 1440]);
    expect(after.every((v) => (v.size ?? 0) > 0)).toBe(true);
    expect((await storage.stat(after[2]!.key))?.size).toBe(after[2]!.size);
    expect((await rowOf(tiny.url)).variants!.map((v) => v.width)).toEqual([300, 300, 300]);
    for (const v of (await rowOf(tiny.url)).variants!) expect(await storage.stat(v.key)).not.toBeNull();

    expect(await backfillVariants(storage)).toBe(0);
  });
});

describe("data saver", () => {
  const request = (headers: Record<string, string> = {}) => new Request("http://localhost/", { headers });

  it("is on for Save-Data: on, whatever its case, and not for anything else", () => {
    expect(saveDataRequested(request({ "Save-Data": "on" }))).toBe(true);
    expect(saveDataRequested(request({ "Save-Data": " On " }))).toBe(true);
    expect(saveDataRequested(request({ "Save-Data": "off" }))).toBe(false);
    expect(saveDataRequested(request())).toBe(false);
  });

  it("a member's setting is theirs alone, follows the session, and changes whom the page's validator is for", async () => {
    const bob = await createMember();
    // A new request for each read, as each page load is: a request reads its session once.
    const asBob = () => request({ Cookie: bob.cookie });
    const keyOff = await viewerKey(asBob());
    expect(dataSaverFor(asBob(), (await readSession(asBob())).signedIn)).toBe(false);

    await setDataSaver(bob, true);
    expect((await readSession(asBob())).signedIn?.dataSaver).toBe(true);
    expect(dataSaverFor(asBob(), (await readSession(asBob())).signedIn)).toBe(true);
    const keyOn = await viewerKey(asBob());
    expect(keyOn).not.toBe(keyOff);
    // Alice's is untouched; a visitor cannot set one.
    expect((await readSession(request({ Cookie: alice.cookie }))).signedIn?.dataSaver).toBe(false);
    await expect(setDataSaver(null, true)).rejects.toThrow();

    await setDataSaver(bob, false);
    expect(await viewerKey(asBob())).toBe(keyOff);
  });
});
