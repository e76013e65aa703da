import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { databaseTestFiles } from "../../scripts/db-test-files";

/**
 * `npm run test:unit:pg` runs only the vitest files that touch the database (issue 41 item 5): a file
 * wrongly left out would lose its PostgreSQL run without a word, so the split is tested on a scratch
 * tree with each way in, and on the repository's own files.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), "db-test-files-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

describe("which vitest files run on PostgreSQL too", () => {
  write("app/utils/db.server.ts", "export const db = 1;\n");
  write("app/utils/db/sql-dialect.server.ts", "export const sql = 1;\n");
  write("app/utils/pure.ts", 'import { format } from "date-fns";\nexport const f = format;\n');
  write("app/models/a.server.ts", 'import { db } from "~/utils/db.server";\nexport const a = db;\n');
  write("app/models/b.server.ts", 'export { a } from "./a.server";\n');
  write("app/web/cycle-one.ts", 'import "./cycle-two";\nimport "~/utils/pure";\n');
  write("app/web/cycle-two.ts", 'import "./cycle-one";\n');
  write("app/web/lazy.ts", 'export const load = () => import("~/utils/db/sql-dialect.server");\n');
  write("tests/fixtures/spawn.ts", 'import { fork } from "node:child_process";\nexport const f = fork;\n');

  write("app/utils/pure.test.ts", 'import { f } from "./pure";\n');
  write("app/web/cycle.test.ts", 'import "./cycle-one";\n');
  write("app/models/through-two.test.ts", 'import { a } from "./b.server";\n');
  write("app/web/lazy.test.ts", 'import { load } from "~/web/lazy";\n');
  write("tests/integration/spawns.test.ts", 'import { f } from "#tests/fixtures/spawn";\n');
  write("tests/integration/worker.test.ts", 'const child = new URL("./two.worker.ts", import.meta.url);\n');
  write("db/unknown.test.ts", 'import { gone } from "#db/no-such-module";\n');
  write("app/models/direct.test.tsx", 'import { db } from "../utils/db.server";\n');

  const split = databaseTestFiles(root);

  it("leaves a file whose imports never reach the database to SQLite, cycles included", () => {
    expect(split.others).toEqual(["app/utils/pure.test.ts", "app/web/cycle.test.ts"]);
  });

  it("runs on both a file that reaches the handle or an engine module by any import, that starts a process, or that names a module it cannot find", () => {
    expect(split.database).toEqual([
      "app/models/direct.test.tsx",
      "app/models/through-two.test.ts",
      "app/web/lazy.test.ts",
      "db/unknown.test.ts",
      "tests/integration/spawns.test.ts",
      "tests/integration/worker.test.ts",
    ]);
  });

  it("on the repository: models and integration tests run on both, pure helpers on SQLite only", () => {
    const repo = databaseTestFiles(path.resolve(import.meta.dirname, "../.."));
    expect(repo.database).toEqual(
      expect.arrayContaining([
        "app/models/posts/post.server.test.ts",
        "tests/integration/concurrent-writes.test.ts",
        "tests/integration/delivery-crash.test.ts",
      ]),
    );
    expect(repo.others).toEqual(expect.arrayContaining(["app/schemas/post.test.ts", "app/utils/time-ago.test.ts"]));
    expect(repo.database.length + repo.others.length).toBeGreaterThan(100);
  });
});
