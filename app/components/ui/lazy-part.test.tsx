// @vitest-environment jsdom
import { act, Suspense, useState, type ComponentType } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { lazyPart } from "./lazy-part";

// React's act() wants to be told it runs in a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Props = { name: string };
const Real = ({ name }: Props) => <p>real part for {name}</p>;
const Fallback = ({ name }: Props) => <p>plain part for {name}</p>;

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

/** A page holding a form the member typed in, and the lazy part beside it (shown when `show`). */
function Page({ Part, show }: { Part: ComponentType<Props>; show: boolean }) {
  const [typed, setTyped] = useState("my scouting notes");
  return (
    <main>
      <textarea value={typed} onChange={(event) => setTyped(event.target.value)} />
      {show ? (
        <Suspense fallback={<p>loading</p>}>
          <Part name="Rosa" />
        </Suspense>
      ) : null}
    </main>
  );
}

async function draw(Part: ComponentType<Props>, show = true) {
  await act(async () => root.render(<Page Part={Part} show={show} />));
  // Let the part's load settle and React draw what it resolved to.
  await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
}

describe("lazyPart", () => {
  it("draws the part once its file arrives", async () => {
    const Part = lazyPart(() => Promise.resolve(Real), Fallback);
    await draw(Part);
    expect(host.textContent).toContain("real part for Rosa");
  });

  it("draws the fallback, with the same props, when the file does not arrive; the page and what was typed stay", async () => {
    const Part = lazyPart<Props>(() => Promise.reject(new TypeError("Failed to fetch dynamically imported module")), Fallback);
    await draw(Part);
    expect(host.textContent).toContain("plain part for Rosa");
    expect(host.querySelector("textarea")?.value).toBe("my scouting notes");
  });

  it("asks again the next time the part is drawn anew, and keeps what is on screen meanwhile", async () => {
    const load = vi.fn<() => Promise<ComponentType<Props>>>().mockRejectedValueOnce(new TypeError("offline")).mockResolvedValue(Real);
    const Part = lazyPart(load, Fallback);
    await draw(Part);
    expect(host.textContent).toContain("plain part for Rosa");
    // Drawn again while on screen: it stays the fallback (no new load, nothing swapped out).
    await draw(Part);
    expect(host.textContent).toContain("plain part for Rosa");
    expect(load).toHaveBeenCalledTimes(1);
    // Closed and drawn anew: the file is asked for again, and this time it comes.
    await draw(Part, false);
    await draw(Part);
    expect(load).toHaveBeenCalledTimes(2);
    expect(host.textContent).toContain("real part for Rosa");
  });
});
