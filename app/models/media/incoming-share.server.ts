import crypto from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { incomingShares, type IncomingShareFile } from "#db/schema";
import { db, first } from "~/utils/db.server";
import { badRequest, notFound } from "~/utils/errors";
import { consumeLimit } from "~/utils/rate-limit.server";
import { runEvery } from "~/utils/jobs.server";
import { getStorage, type MediaStorage } from "~/utils/media/storage.server";
import { requireSignedIn } from "~/models/access.server";
import type { Actor } from "~/models/members/user.server";
import { discardUploads, ownPendingUploads, releaseHeld, storeHeldUpload, type HeldFile, type StoredMedia } from "./media.server";

/**
 * What a phone's share sheet sends into the site (CONTRACT.md §14 "Sharing from the phone",
 * docs/decisions/0092-share-target.md): a title, a text, a URL and files. The create page takes it
 * from here by its id (`/create?share=…`). A member's files are their uploads already; a visitor's
 * are held as sent until they sign in and claim the share, when each becomes their upload under
 * every upload rule. Either is kept at most an hour (`SHARE_KEPT_MS`); the prune job removes it.
 */

export const SHARE_KEPT_MS = 3_600_000;

/** The text parts of a share, as the manifest's `share_target.params` names them. */
export type SharedText = { title: string | null; text: string | null; url: string | null };

/** What the create page fills in from a share. */
export type ShareForCreate = { title: string; content: string; mediaUrl: string; uploads: Omit<StoredMedia, "id">[] };

export const NOTHING_SHARED = "Nothing was shared: choose a photo, a video, an audio file or some text to share.";
export const SHARE_GONE = "These shared items are no longer kept (the site keeps them an hour). Share them again from your phone.";

/** Trimmed text parts; an empty one is null. */
export function sharedText(get: (name: "title" | "text" | "url") => unknown): SharedText {
  const one = (name: "title" | "text" | "url") => {
    const value = get(name);
    return typeof value === "string" && value.trim() ? value.trim() : null;
  };
  return { title: one("title"), text: one("text"), url: one("url") };
}

/** A share with no file and no text is refused before anything is kept. */
export function assertSomethingShared(text: SharedText, files: number): void {
  if (files === 0 && !text.title && !text.text && !text.url) throw badRequest(NOTHING_SHARED);
}

const newShareId = () => crypto.randomBytes(18).toString("base64url");

/** A member's share: their uploads (already stored by the caller under every upload rule) and the text. */
export async function keepMemberShare(actor: Actor, text: SharedText, uploadUrls: readonly string[]): Promise<string> {
  const me = requireSignedIn(actor);
  assertSomethingShared(text, uploadUrls.length);
  const id = newShareId();
  await db.insert(incomingShares).values({ id, ownerId: me.id, ...text, files: uploadUrls.map((url) => ({ url })) });
  return id;
}

/**
 * A visitor's share is counted against their address before any file is read (`sharesPerIp`): a
 * visitor cannot fill the disk with files nobody will claim.
 */
export function countVisitorShare(ip: string): Promise<void> {
  return consumeLimit("sharesPerIp", ip);
}

/** A visitor's share: the held files (holdUpload) and the text, with no owner until claimShare. */
export async function keepVisitorShare(text: SharedText, held: readonly HeldFile[]): Promise<string> {
  assertSomethingShared(text, held.length);
  const id = newShareId();
  await db.insert(incomingShares).values({ id, ownerId: null, ...text, files: [...held] });
  return id;
}

const isHeld = (file: IncomingShareFile): file is HeldFile => "key" in file;
const cutoff = (now: number) => new Date(now - SHARE_KEPT_MS);

/**
 * The member signed in after sharing: the visitor's share becomes theirs, each held file their
 * upload (storeUpload's rules, the hourly upload limit among them). Taken by one request only (the
 * owner is set first, where none was); a repeat by the same member changes nothing. When a file is
 * refused (the upload limit reached), the uploads stored so far go again, the share stays unclaimed
 * for a later try within its hour, and the refusal is thrown.
 */
export async function claimShare(actor: Actor, id: string, storage: MediaStorage = getStorage(), now = Date.now()): Promise<string> {
  const me = requireSignedIn(actor);
  const taken = first(
    await db
      .update(incomingShares)
      .set({ ownerId: me.id })
      .where(and(eq(incomingShares.id, id), isNull(incomingShares.ownerId), gt(incomingShares.createdAt, cutoff(now))))
      .returning(),
  );
  if (!taken) {
    const mine = first(
      await db
        .select({ id: incomingShares.id })
        .from(incomingShares)
        .where(and(eq(incomingShares.id, id), eq(incomingShares.ownerId, me.id), gt(incomingShares.createdAt, cutoff(now)))),
    );
    if (mine) return id;
    throw notFound(SHARE_GONE);
  }
  const urls: string[] = [];
  try {
    for (const file of taken.files) urls.push(isHeld(file) ? (await storeHeldUpload(me, file, storage)).url : file.url);
  } catch (error) {
    await discardUploads(me, urls, storage, { refund: true });
    await db.update(incomingShares).set({ ownerId: null }).where(eq(incomingShares.id, id));
    throw error;
  }
  await db
    .update(incomingShares)
    .set({ files: urls.map((url) => ({ url })) })
    .where(eq(incomingShares.id, id));
  return id;
}

/** Whether a visitor's share is still kept (the page after sign-in says so, or that it is gone). */
export async function visitorShareKept(id: string, now = Date.now()): Promise<boolean> {
  const row = first(
    await db
      .select({ id: incomingShares.id })
      .from(incomingShares)
      .where(and(eq(incomingShares.id, id), gt(incomingShares.createdAt, cutoff(now)))),
  );
  return Boolean(row);
}

/** The member's own share, as the create page fills it in; another's or an expired one is 404. */
export async function shareForCreate(actor: Actor, id: string, now = Date.now()): Promise<ShareForCreate> {
  const me = requireSignedIn(actor);
  const row = first(
    await db
      .select()
      .from(incomingShares)
      .where(and(eq(incomingShares.id, id), eq(incomingShares.ownerId, me.id), gt(incomingShares.createdAt, cutoff(now)))),
  );
  if (!row) throw notFound(SHARE_GONE);
  const urls = row.files.flatMap((file) => (isHeld(file) ? [] : [file.url]));
  return {
    title: row.title ?? "",
    content: row.text ?? "",
    mediaUrl: row.url ?? "",
    uploads: (await ownPendingUploads(me, urls)).map(({ id: _id, ...file }) => file),
  };
}

/**
 * Shares older than an hour go, with a visitor's held files. A member's uploads stay theirs (the
 * upload pruning removes those no post took within a week). Returns how many went.
 */
export async function pruneExpiredShares(storage: MediaStorage = getStorage(), now = Date.now()): Promise<number> {
  const rows = await db
    .delete(incomingShares)
    .where(lt(incomingShares.createdAt, cutoff(now)))
    .returning({ files: incomingShares.files });
  await releaseHeld(
    rows.flatMap((row) => row.files.filter(isHeld).map((file) => file.key)),
    storage,
  );
  return rows.length;
}

/** Every 10 minutes (and at start), so nothing shared outlives its hour by much. */
export function scheduleSharePruning({ everyMs = 10 * 60_000 }: { everyMs?: number } = {}): () => void {
  return runEvery("prune-incoming-shares", everyMs, () => pruneExpiredShares());
}
