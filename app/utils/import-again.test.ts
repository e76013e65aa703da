import { describe, expect, it, vi } from "vitest";
import { failedModuleAddress, importAgain } from "./import-again";

describe("failedModuleAddress", () => {
  it("reads the address Chromium and Firefox name in a failed dynamic import", () => {
    const chromium = new TypeError("Failed to fetch dynamically imported module: http://localhost:3000/build/_shared/forms-AB12CD34.js");
    const firefox = new TypeError("error loading dynamically imported module: https://pulse.example/build/_shared/editor-XY.js");
    expect(failedModuleAddress(chromium)).toBe("http://localhost:3000/build/_shared/forms-AB12CD34.js");
    expect(failedModuleAddress(firefox)).toBe("https://pulse.example/build/_shared/editor-XY.js");
  });

  it("gives the address without an earlier try's mark, and null where the message names none (WebKit)", () => {
    expect(failedModuleAddress(new TypeError("Failed to fetch dynamically imported module: http://h/build/a-1.js?retry=3"))).toBe(
      "http://h/build/a-1.js",
    );
    expect(failedModuleAddress(new TypeError("Importing a module script failed."))).toBeNull();
    expect(failedModuleAddress(undefined)).toBeNull();
  });
});

describe("importAgain", () => {
  it("asks again after a failure that names no address, and keeps the module once it came", async () => {
    const importer = vi
      .fn<() => Promise<{ Part: string }>>()
      .mockRejectedValueOnce(new TypeError("Importing a module script failed."))
      .mockResolvedValue({ Part: "part" });
    const load = importAgain(importer, (m) => m.Part);
    await expect(load()).rejects.toThrow("Importing a module script failed.");
    await expect(load()).resolves.toBe("part");
    await expect(load()).resolves.toBe("part");
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it("after a failure that names an address, asks for that address anew instead of the same import", async () => {
    const importer = vi.fn(() =>
      Promise.reject(new TypeError("Failed to fetch dynamically imported module: http://127.0.0.1:9/build/x-1.js")),
    );
    const load = importAgain(importer);
    await expect(load()).rejects.toThrow();
    // The second try is an import() of http://127.0.0.1:9/build/x-1.js?retry=1, which Node refuses
    // (no http: modules); what matters is that the failed import() was not called again.
    await expect(load()).rejects.toThrow();
    expect(importer).toHaveBeenCalledTimes(1);
  });
});
