import { Writable } from "node:stream";
import type { EntryContext } from "react-router";
import type { ReactElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";

/**
 * A document drawn whole (docs/decisions/0043-visitor-page-cache-and-prepared-reads.md).
 *
 * In one synchronous pass first: that costs less than a stream of chunks encoded, collected and
 * decoded again (about a fifth of a member's home). A part whose code is loaded on demand
 * (React.lazy: the no-JS toast, the edit forms, docs/decisions/0044) cannot be drawn that way until
 * its module has been loaded once in this process: its boundary comes out as "draw it in the
 * browser", and the document is drawn again as a stream that waits for every boundary. The first
 * pass has started the module's load, so from then on the part is drawn synchronously too.
 *
 * An error while drawing the synchronous pass throws (Remix then draws the error boundary); one
 * inside a boundary of the waiting pass is reported to `onError` and makes the answer a 500.
 */

/** How React marks a Suspense boundary it left for the browser to draw. */
export const CLIENT_RENDERED_BOUNDARY = "<!--$!-->";
const ABORT_DELAY_MS = 5_000;

export async function drawDocument(element: ReactElement, onError: (error: unknown) => void): Promise<{ body: string; failed: boolean }> {
  const body = renderToString(element);
  if (!body.includes(CLIENT_RENDERED_BOUNDARY)) return { body, failed: false };
  return drawWaiting(element, onError);
}

function drawWaiting(element: ReactElement, onError: (error: unknown) => void): Promise<{ body: string; failed: boolean }> {
  let failed = false;
  let shellRendered = false;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        resolve({ body: Buffer.concat(chunks).toString("utf8"), failed });
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(element, {
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(sink);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        failed = true;
        if (shellRendered) onError(error);
      },
    });
    setTimeout(abort, ABORT_DELAY_MS).unref();
  });
}

/**
 * The page's data for the browser, read before the document is drawn (docs/decisions/0079-single-
 * fetch.md). With single fetch, Remix hands the loaders' data to `<RemixServer>` as a stream
 * (`serverHandoffStream`, turbo-stream) that a Suspense part writes into the page as inline scripts,
 * one chunk per read: drawn with `renderToString` that part always waits, so every page that runs
 * scripts would be drawn a second time as a stream (`drawWaiting`), and that second draw asks the
 * stream for a reader again, which Node refuses (a locked stream: every member page answered 500).
 *
 * So the stream is read whole here, and Remix's own cache of what it read (`renderMeta.streamCache`,
 * where the part looks before it reads) is given all of it as its first read, done: the part draws
 * synchronously, once per draw, the same inline scripts. Each draw gets a fresh, empty stream to ask
 * a reader of. Remix 2.17's internals (as React Router 7's `ServerRouter`): checked by
 * tests/integration/single-fetch.test.ts on a real document.
 */
export async function withHandoffRead(context: EntryContext): Promise<EntryContext> {
  const stream = (context as { serverHandoffStream?: ReadableStream<Uint8Array> }).serverHandoffStream;
  const renderMeta = (context as { renderMeta?: { streamCache?: Record<number, Promise<void> & { result?: unknown }> } }).renderMeta;
  if (!stream || !renderMeta) return context;
  const text = await new Response(stream).text();
  const read = Object.assign(Promise.resolve(), { result: { done: true, value: text } });
  renderMeta.streamCache = { 0: read };
  return Object.defineProperty({ ...context }, "serverHandoffStream", {
    get: () => new ReadableStream({ start: (controller) => controller.close() }),
    enumerable: true,
  });
}
