import { useCallback, useEffect, useState } from "react";
import type { WithPreview } from "~/utils/preview";
import type { Post } from "~/schemas/shapes";

/**
 * A card carries only its post's 200-character preview (docs/decisions/0037-cheaper-home-
 * rendering.md); the Edit Post dialog needs the whole body, read from GET /api/posts/{id} when the
 * dialog opens (the author's ⋯ menu opening starts it). A body read earlier than FRESH_MS ago is read
 * again, and every read is dropped once its dialog has used it, so an edit never starts from a
 * stale body, let alone the preview.
 */

type Editable = Pick<Post, "id" | "title" | "content" | "type" | "mediaUrl" | "tags">;
const FRESH_MS = 30_000;
const reads = new Map<number, { at: number; body: Promise<Editable> }>();

function read(id: number): Promise<Editable> {
  const known = reads.get(id);
  if (known && Date.now() - known.at < FRESH_MS) return known.body;
  const body = fetch(`/api/posts/${id}`, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(async (res) => {
    if (!res.ok) throw new Error(`GET /api/posts/${id}: ${res.status}`);
    return (await res.json()) as Post;
  });
  // A failed read is not kept: the next try asks again.
  body.catch(() => reads.delete(id));
  reads.set(id, { at: Date.now(), body });
  return body;
}

/** Start reading the full post behind a preview (its author opened the ⋯ menu). */
export function preloadFullPost(post: WithPreview<Editable>): void {
  if (post.preview) void read(post.id).catch(() => undefined);
}

export type FullPost<P> = { status: "ready"; post: P } | { status: "loading" | "failed"; post: null; retry: () => void };

/** The post with its full body: at once when `post` is not a preview, else once read from the server. */
export function useFullPost<P extends WithPreview<Editable>>(post: P): FullPost<P> {
  const [state, setState] = useState<{ status: "loading" | "failed" | "ready"; body: Editable | null }>(() => ({
    status: post.preview ? "loading" : "ready",
    body: null,
  }));
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const { id, preview } = post;

  useEffect(() => {
    if (!preview) return;
    let live = true;
    setState({ status: "loading", body: null });
    read(id).then(
      (body) => live && setState({ status: "ready", body }),
      () => live && setState({ status: "failed", body: null }),
    );
    return () => {
      live = false;
      // Used (or abandoned): the next opening reads the post again.
      reads.delete(id);
    };
  }, [id, preview, attempt]);

  if (!preview) return { status: "ready", post };
  if (state.status === "ready" && state.body) {
    const { title, content, type, mediaUrl, tags } = state.body;
    return { status: "ready", post: { ...post, title, content, type, mediaUrl, tags, preview: undefined } };
  }
  return { status: state.status === "failed" ? "failed" : "loading", post: null, retry };
}
