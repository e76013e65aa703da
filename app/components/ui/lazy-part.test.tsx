// @vitest-environment jsdom
import { act, Suspense, useState, type ComponentType } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { lazyPart } from "./lazy-part";
import { lazyPagePart } from "./lazy-page-part";

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

/** The server's HTML of a page whose main form is a lazy part, hydrated in `host` (docs/decisions/0046). */
async function hydrateServerForm(Part: ComponentType<Props>) {
  act(() => root.unmount());
  host.innerHTML = `<main><!--$--><form><input name="title" value=""/><p>server form for <!-- -->Rosa</p></form><!--/$--></main>`;
  const field = host.querySelector("input")!;
  field.value = "typed before the code came";
  await act(async () => {
    root = hydrateRoot(
      host,
      <main>
        <Part name="Rosa" />
      </main>,
    );
  });
  await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
  return field;
}

const ServerForm = ({ name }: Props) => (
  <form>
    <input name="title" defaultValue="" />
    <p>server form for {name}</p>
  </form>
);

describe("lazyPagePart (a page's main form)", () => {
  it("keeps the server's form, and what was typed in it, while its code does not come", async () => {
    const load = vi.fn<() => Promise<ComponentType<Props>>>().mockRejectedValue(new TypeError("offline"));
    const Part = lazyPagePart(load, Fallback);
    const field = await hydrateServerForm(Part);
    expect(host.textContent).toContain("server form for Rosa");
    expect(host.textContent).not.toContain("plain part");
    expect(host.querySelector("input")).toBe(field);
    expect(field.value).toBe("typed before the code came");
    expect(document.documentElement.dataset.parts).toBe("hydrating");
  });

  it("hydrates the form in place when the code comes on a later try (the browser back online)", async () => {
    const load = vi.fn<() => Promise<ComponentType<Props>>>().mockRejectedValueOnce(new TypeError("offline")).mockResolvedValue(ServerForm);
    const Part = lazyPagePart(load, Fallback);
    const field = await hydrateServerForm(Part);
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => {
      window.dispatchEvent(new Event("online"));
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(load).toHaveBeenCalledTimes(2);
    expect(host.querySelector("input")).toBe(field);
    expect(field.value).toBe("typed before the code came");
    expect(Object.keys(field).some((key) => key.startsWith("__reactFiber"))).toBe(true);
  });
});
