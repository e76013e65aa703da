/**
 * A dynamic `import()` that can be asked for again after its file failed to arrive (issue 42).
 *
 * A browser keeps a failed module fetch in the page's module map: Chromium (150 and later here)
 * answers a second `import()` of the same address with the same failure, at once and without a
 * request, for the life of the page. So calling the same `import()` again after a dropped chunk never
 * fetches it. The address that failed is in the error's message in Chromium ("Failed to fetch
 * dynamically imported module: URL") and Firefox ("error loading dynamically imported module: URL");
 * a later try imports it under an address the module map has not seen (`?retry=N`), which the
 * server and the service worker answer with the same file. A browser whose message names no address
 * is asked with the original `import()` again.
 *
 * Only the module that was asked for gets a fresh address: if one of its own imports is what failed,
 * that one stays failed until the page is loaded again (the lazy parts' fallbacks offer that).
 * Once a try succeeds, every later call gets that same module. `pick` takes what the caller wants
 * out of the module (a component), on every try alike.
 */
export function importAgain<M, R = M>(
  importer: () => Promise<M>,
  pick: (module: M) => R = (module) => module as unknown as R,
): () => Promise<R> {
  let loaded: Promise<R> | undefined;
  let failedAt: string | null = null;
  let tries = 0;
  return () =>
    loaded ??
    (failedAt ? (import(/* @vite-ignore */ `${failedAt}?retry=${++tries}`) as Promise<M>) : importer()).then(
      (module) => {
        const value = pick(module);
        loaded = Promise.resolve(value);
        return value;
      },
      (error: unknown) => {
        failedAt = failedModuleAddress(error) ?? failedAt;
        throw error;
      },
    );
}

/** The address of the module whose fetch failed, as the error's message names it (without its query), or null. */
export function failedModuleAddress(error: unknown): string | null {
  const found = /https?:\/\/[^\s"'<>?#]+/.exec(String((error as Error | undefined)?.message ?? error))?.[0];
  return found ? found.replace(/[.,;:)]+$/, "") : null;
}
