import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { frameworkPatches, logFrameworkPatches } from "./framework-patches.server";

const PATCH = `diff --git a/node_modules/pkg/dist/a.js b/node_modules/pkg/dist/a.js
--- a/node_modules/pkg/dist/a.js
+++ b/node_modules/pkg/dist/a.js
@@ -1,2 +1,3 @@
 const a = 1;
+// Whitetail Pulse patch: kept once
+const kept = new Map();
 module.exports = a;
`;

function root(file: string | null) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "patches-"));
  fs.mkdirSync(path.join(dir, "patches"));
  fs.writeFileSync(path.join(dir, "patches", "pkg+1.0.0.patch"), PATCH);
  if (file !== null) {
    fs.mkdirSync(path.join(dir, "node_modules/pkg/dist"), { recursive: true });
    fs.writeFileSync(path.join(dir, "node_modules/pkg/dist/a.js"), file);
  }
  return dir;
}

describe("framework patches at start-up (ADR 0058)", () => {
  it("a patch is active when every line it adds is in the installed file, and not otherwise", () => {
    const patched = "const a = 1;\n// Whitetail Pulse patch: kept once\nconst kept = new Map();\nmodule.exports = a;\n";
    expect(frameworkPatches(root(patched))).toEqual([{ patch: "pkg+1.0.0.patch", active: true, files: ["node_modules/pkg/dist/a.js"] }]);
    expect(frameworkPatches(root("const a = 1;\nmodule.exports = a;\n"))[0]!.active).toBe(false);
    expect(frameworkPatches(root(null))[0]!.active).toBe(false);
  });

  it("the server warns, naming the patch, when one is not active", () => {
    const log = { info: vi.fn(), warn: vi.fn() };
    const cwd = process.cwd();
    process.chdir(root("const a = 1;\n"));
    try {
      logFrameworkPatches(log);
    } finally {
      process.chdir(cwd);
    }
    expect(log.info).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledWith({ patches: ["pkg+1.0.0.patch: NOT ACTIVE"] }, expect.stringContaining("pkg+1.0.0.patch"));
  });

  it("every patch in this repository is active in its node_modules", () => {
    const states = frameworkPatches();
    for (const state of states) expect(state, state.patch).toMatchObject({ active: true });
  });
});
