import { useEffect, useState } from "react";
import type { LinkMetadata } from "~/schemas/media-options";
import { isHttpUrl } from "~/utils/urls";
import { LinkPreviewCard, LinkPreviewSkeleton } from "./link-preview-card";

/**
 * The link preview's requests to /api/fetch-url-metadata (SPEC.md §2 / §4), apart from the card
 * (link-preview.tsx), which draws stored metadata on the server and in the feed's first load: a
 * card's fetch for a post without stored metadata, and the editor's live preview, load this file
 * when first needed.
 */

/** Previews already fetched on this page, so cards and the editor never ask twice. */
const fetched = new Map<string, LinkMetadata | null>();

async function requestMetadata(url: string, signal: AbortSignal): Promise<LinkMetadata | null> {
  if (fetched.has(url)) return fetched.get(url)!;
  try {
    const response = await fetch("/api/fetch-url-metadata", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ url }),
      signal,
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    const data = (await response.json()) as LinkMetadata;
    fetched.set(url, data);
    return data;
  } catch (error) {
    if (signal.aborted) throw error;
    // SPEC.md §8: failures of the metadata call are only logged; the plain link is shown.
    console.warn(`Link preview unavailable for ${url}:`, error);
    fetched.set(url, null);
    return null;
  }
}

type State = { status: "idle" | "loading" | "done"; metadata: LinkMetadata | null };

/**
 * Fetches metadata for `url` once `enabled`, after `delayMs` (the editor's 500 ms pause after
 * typing); a newer URL cancels the older request.
 */
function useLinkMetadata(url: string, { enabled, delayMs }: { enabled: boolean; delayMs: number }): State {
  const [state, setState] = useState<State>({ status: "idle", metadata: null });
  useEffect(() => {
    if (!enabled) {
      setState({ status: "idle", metadata: null });
      return;
    }
    if (fetched.has(url)) {
      setState({ status: "done", metadata: fetched.get(url)! });
      return;
    }
    const controller = new AbortController();
    setState({ status: "idle", metadata: null });
    const timer = setTimeout(() => {
      setState({ status: "loading", metadata: null });
      requestMetadata(url, controller.signal).then(
        (metadata) => setState({ status: "done", metadata }),
        () => undefined, // aborted: a newer URL took over
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [url, enabled, delayMs]);
  return state;
}

/** A card's preview of a post without stored metadata (a member, with JavaScript): fetched once. */
export function LiveLinkPreview({ url }: { url: string }) {
  const live = useLinkMetadata(url, { enabled: true, delayMs: 0 });
  if (live.status !== "done") return <LinkPreviewSkeleton />;
  return <LinkPreviewCard url={url} metadata={live.metadata} />;
}

/** In the post editor: a live preview 500 ms after a URL starting with http is typed (JavaScript only). */
export function EditorLinkPreview({ url }: { url: string }) {
  const trimmed = url.trim();
  const wanted = /^http/i.test(trimmed) && isUrl(trimmed);
  const live = useLinkMetadata(trimmed, { enabled: wanted, delayMs: 500 });
  if (!wanted || live.status === "idle") return null;
  if (live.status === "loading") return <LinkPreviewSkeleton />;
  return <LinkPreviewCard url={trimmed} metadata={live.metadata} />;
}

/** An http(s) address whose host has a dot: a half-typed "https://exa" is not looked up yet. */
function isUrl(value: string): boolean {
  return isHttpUrl(value) && new URL(value).hostname.includes(".");
}
