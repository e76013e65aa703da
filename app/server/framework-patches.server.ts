import fs from "node:fs";
import path from "node:path";

/**
 * Whether the framework patches in patches/ are active in the node_modules this server runs on
 * (docs/decisions/0058-framework-overrides-and-patches.md). `npm install` fails when one does not
 * apply (`patch-package --error-on-fail`), but a server can still run on a node_modules installed
 * some other way, so the server says at start-up which are active.
 *
 * A patch is active when every line it adds is in the file it patches, as installed.
 */
export type PatchState = { patch: string; active: boolean; files: string[] };

export function frameworkPatches(root: string = process.cwd()): PatchState[] {
  const dir = path.join(root, "patches");
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith(".patch"));
  } catch {
    return [];
  }
  return names.sort().map((patch) => {
    const added = new Map<string, string[]>();
    let file: string | null = null;
    for (const line of fs.readFileSync(path.join(dir, patch), "utf8").split("\n")) {
      const target = /^\+\+\+ b\/(.+)$/.exec(line);
      if (target) {
        file = target[1]!;
        added.set(file, []);
      } else if (file && line.startsWith("+") && line.slice(1).trim()) added.get(file)!.push(line.slice(1));
    }
    const active = [...added].every(([target, lines]) => {
      try {
        const text = fs.readFileSync(path.join(root, target), "utf8");
        return lines.every((l) => text.includes(l));
      } catch {
        return false;
      }
    });
    return { patch, active, files: [...added.keys()] };
  });
}

/** One log line at start-up: the patches and whether each is active; a warning when one is not. */
export function logFrameworkPatches(log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void }) {
  const patches = frameworkPatches();
  const inactive = patches.filter((p) => !p.active).map((p) => p.patch);
  const fields = { patches: patches.map((p) => `${p.patch}: ${p.active ? "active" : "NOT ACTIVE"}`) };
  if (inactive.length) log.warn(fields, `framework patches not active: ${inactive.join(", ")} (run npm install; ADR 0058)`);
  else log.info(fields, patches.length ? "framework patches active" : "no framework patches");
}
