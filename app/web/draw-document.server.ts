import { Writable } from "node:stream";
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
