/**
 * The vitest files that touch the database, for the PostgreSQL run (`npm run test:unit:pg`, issue 41
 * item 5): a file whose code never reaches a database handle runs the same on either engine, so
 * running it twice only costs CI time (a PostgreSQL database copied for it, its imports again).
 *
 *   tsx scripts/db-test-files.ts            prints the files, one per line
 *   tsx scripts/db-test-files.ts --others   prints the files left to the SQLite run alone
 *
 * A file touches the database when its imports, followed through the repository (static imports,
 * `import()` and `export … from`, the `~`, `#db` and `#tests` aliases, relative paths), reach the
 * handle (`app/utils/db.server.ts`) or the engines (`app/utils/db/`); or when it starts processes
 * (`child_process`, a `*.worker` file, the server), which open a database of their own that the walk
 * cannot follow. When in doubt a file runs on both: a module that cannot be resolved counts as one
 * that touches the database.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const TEST_DIRS = ["app", "db", "tests/integration"];
const TEST_FILE = /\.test\.tsx?$/;
const ALIASES: Record<string, string> = { "~/": "app/", "#db/": "db/", "#tests/": "tests/" };
const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];
/** What a test must not reach to run on SQLite alone, under the repository's root. */
const DATABASE = ["app/utils/db.server.ts", "app/utils/db/"];
/** Code that starts another process, whose database the walk cannot see. */
const SPAWNS = /\bchild_process\b|\.worker(\.ts)?["'`]|\bserver\.js\b/;

/** The vitest files under `root`, split into those that touch the database and the others. */
export function databaseTestFiles(root: string): { database: string[]; others: string[] } {
  const database = DATABASE.map((file) => path.join(root, file));
  const edges = new Map<string, { direct: boolean; imports: string[] }>();

  function listTests(dir: string): string[] {
    const out: string[] = [];
    if (!fs.existsSync(path.join(root, dir))) return out;
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") out.push(...listTests(rel));
      } else if (TEST_FILE.test(entry.name)) out.push(rel);
    }
    return out;
  }

  /** The file an import names, null for a package, "unresolved" when it names ours but finds none. */
  function resolve(from: string, specifier: string): string | null | "unresolved" {
    let base: string | undefined;
    if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
    for (const [alias, dir] of Object.entries(ALIASES)) {
      if (specifier.startsWith(alias)) base = path.join(root, dir, specifier.slice(alias.length));
    }
    if (base === undefined) return null;
    for (const ext of EXTENSIONS) {
      const file = base + ext;
      if (fs.existsSync(file) && fs.statSync(file).isFile()) return file;
    }
    return "unresolved";
  }

  /** What one file imports of ours, and whether it reaches the database by itself. */
  function look(file: string): { direct: boolean; imports: string[] } {
    const known = edges.get(file);
    if (known) return known;
    const text = fs.readFileSync(file, "utf8");
    const seen = { direct: SPAWNS.test(text), imports: [] as string[] };
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolve(file, fileName);
      if (target === "unresolved") seen.direct = true;
      else if (target !== null) seen.imports.push(target);
    }
    edges.set(file, seen);
    return seen;
  }

  /** Whether anything `file` imports, however far down, is the database or starts a process. */
  function touchesDatabase(file: string): boolean {
    const queue = [file];
    const visited = new Set(queue);
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (database.some((db) => next === db || (db.endsWith("/") && next.startsWith(db)))) return true;
      const { direct, imports } = look(next);
      if (direct) return true;
      for (const target of imports) {
        if (!visited.has(target)) {
          visited.add(target);
          queue.push(target);
        }
      }
    }
    return false;
  }

  const split = { database: [] as string[], others: [] as string[] };
  for (const file of TEST_DIRS.flatMap(listTests).sort()) {
    split[touchesDatabase(path.join(root, file)) ? "database" : "others"].push(file);
  }
  return split;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const split = databaseTestFiles(path.resolve(import.meta.dirname, ".."));
  for (const file of process.argv.includes("--others") ? split.others : split.database) console.log(file);
}
