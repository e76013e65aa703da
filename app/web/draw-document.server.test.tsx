import { lazy, Suspense } from "react";
import { describe, expect, it } from "vitest";
import { CLIENT_RENDERED_BOUNDARY, drawDocument } from "./draw-document.server";

describe("drawDocument", () => {
  it("draws a part loaded on demand on the very first request, and synchronously after", async () => {
    let loads = 0;
    const Toast = lazy(async () => {
      loads += 1;
      return { default: () => <p role="status">Post published</p> };
    });
    const page = () => (
      <main>
        <Suspense fallback={null}>
          <Toast />
        </Suspense>
      </main>
    );
    const first = await drawDocument(page(), () => undefined);
    expect(first.body).toContain("Post published");
    expect(first.body).not.toContain(CLIENT_RENDERED_BOUNDARY);
    const again = await drawDocument(page(), () => undefined);
    expect(again).toEqual({ body: first.body, failed: false });
    expect(loads).toBe(1);
  });

  it("a page with nothing on demand is drawn in one pass; an error thrown while drawing propagates", async () => {
    expect(await drawDocument(<p>Hot Tracks</p>, () => undefined)).toEqual({ body: "<p>Hot Tracks</p>", failed: false });
    const Broken = () => {
      throw new Error("boom");
    };
    await expect(drawDocument(<Broken />, () => undefined)).rejects.toThrow("boom");
  });
});
