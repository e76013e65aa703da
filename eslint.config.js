// ESLint (flat config). `npm run lint` runs it with Prettier's check; `npm test` runs lint first.
// The rules that need the type checker (a forgotten `await`) are in eslint.types.config.js, run by
// `npm run typecheck`: building the program costs more than every rule here together.
// ADR 0013 explains the layers that `import-x/no-restricted-paths` enforces below.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * `target` may import nothing from `from`: imports point server → routes → web → models → utils → db,
 * components → ui, schemas. app/server is the server edge (its README): only entry.server and
 * /healthz reach into it. The browser's own code points down too: components → offline → utils and
 * schemas, and the service worker (app/sw) → offline → utils; none of them, nor schemas, imports a
 * `.server` file (app/utils/README.md maps utils' folders and who imports them).
 */
export const ignores = ["build/", "node_modules/", "tmp/", "data/", ".cache/", "test-results/", "playwright-report/", "db/migrations/"];

const utilsBelowTheBrowser = {
  target: "./app/utils",
  from: ["./app/offline", "./app/sw"],
  message: "app/utils is below app/offline and app/sw: what both need lives in utils (e.g. utils/revalidation.ts), and offline imports it.",
};

const layers = [
  {
    target: "./app/utils",
    from: ["./app/server", "./app/models", "./app/web", "./app/routes", "./app/components"],
    message: "app/utils is infrastructure: it imports no models, web, routes or components.",
  },
  utilsBelowTheBrowser,
  {
    target: "./app/models",
    from: ["./app/server", "./app/web", "./app/routes", "./app/components"],
    message: "app/models is the domain: it imports no web, routes or components.",
  },
  {
    target: "./app/web",
    from: ["./app/server", "./app/routes", "./app/components"],
    message: "app/web holds the HTTP helpers shared by routes: it imports no server edge, routes or components.",
  },
  {
    target: "./app/schemas",
    from: ["./app/server", "./app/models", "./app/web", "./app/routes", "./app/components"],
    message: "app/schemas is shared by browser and server: it imports no models, web, routes or components.",
  },
  {
    target: "./app/components",
    from: ["./app/server", "./app/models", "./app/web", "./app/routes", "./app/root.tsx"],
    message: "Components take what they need as props: they import no models, web, routes or ~/root.",
  },
  // Inside utils (app/utils/README.md): the engines sit behind db.server.ts, and the operator's commands on top.
  {
    target: ["./app/models", "./app/web", "./app/routes", "./app/components"],
    from: ["./app/utils/db"],
    except: ["./sql-dialect.server.ts"],
    message:
      "The database engines are reached through ~/utils/db.server (the handle); of app/utils/db, only sql-dialect.server.ts is for models.",
  },
  {
    target: ["./app/utils/*.{ts,tsx}", "./app/utils/db", "./app/utils/media"],
    from: ["./app/utils/operations"],
    message:
      "app/utils/operations (backup, restore, db:move) is run by scripts and the jobs registry (app/server): nothing below imports it.",
  },
  {
    target: ["./app/models", "./app/web", "./app/routes", "./app/components", "./app/offline", "./app/sw", "./app/schemas"],
    from: ["./app/utils/operations"],
    message: "app/utils/operations (backup, restore, db:move) is run by scripts and the jobs registry (app/server) only.",
  },
  {
    target: ["./app/utils/*.{ts,tsx}", "./app/utils/db"],
    from: ["./app/utils/media"],
    message: "The media pipeline (app/utils/media) builds on the helpers and the database, not the other way.",
  },
  {
    target: "./app/offline",
    from: ["./app/server", "./app/models", "./app/web", "./app/routes", "./app/components", "./app/sw", "./app/root.tsx", "./db"],
    message:
      "app/offline is the browser's side of drafts, the outbox and uploads: it imports browser-safe utils and schemas, never components, models, web, routes, the service worker or the database.",
  },
  {
    target: "./app/sw",
    from: ["./app/server", "./app/models", "./app/web", "./app/routes", "./app/components", "./app/schemas", "./app/root.tsx", "./db"],
    message:
      "The service worker imports app/offline and browser-safe utils only: it runs in a worker, and scripts/build-sw.ts bundles all it imports.",
  },
  {
    target: ["./app/sw", "./app/offline", "./app/components", "./app/schemas"],
    from: ["./app/**/*.server.*"],
    message: "Browser code imports no .server file: it would put server code (and secrets) in the browser's bundle, or fail the build.",
  },
  {
    target: "./app/routes",
    from: ["./app/server"],
    except: ["./request-log.server.ts"],
    message: "Routes do not reach into the server edge (app/server/README.md); /healthz reads only whether the process drains.",
  },
];

/**
 * Models are written once for both engines (docs/decisions/0061, 0076) but typed against SQLite's
 * builders, so a SQLite-only call compiles and fails only in the PostgreSQL run. In app/models these
 * are refused: drizzle's `.get()`, `.all()` and `.run()` (SQLite's alone: `await query` runs on
 * both), engine-only SQL functions and phrases in string and template literals, and asking which
 * engine answers. Such SQL goes in app/utils/db/sql-dialect.server.ts, with both engines' variants.
 */
const ENGINE_SQL_HOME = "Engine-specific SQL lives in app/utils/db/sql-dialect.server.ts (ADR 0076), with both engines' variants.";
// Function calls one engine lacks (any case), then phrases one engine lacks (SQL's upper case, so prose is not caught).
const ENGINE_ONLY_FUNCTIONS =
  "/\\b(json_each|json_tree|json_group_array|json_array_elements(_text)?|strftime|datetime|julianday|unixepoch|ifnull|group_concat|last_insert_rowid|to_tsquery|clock_timestamp)\\s*\\(|\\browid\\b|\\bposts_fts\\b/i";
const ENGINE_ONLY_PHRASES =
  "/\\b(COLLATE NOCASE|INDEXED BY|NOT INDEXED|INSERT OR (IGNORE|REPLACE)|ILIKE)\\b|::(integer|bigint|text|json|jsonb)\\b/";
const engineOnlySql = [
  {
    selector: "CallExpression[arguments.length=0][callee.property.name=/^(get|all|run)$/]",
    message: `drizzle's .get(), .all() and .run() are SQLite's alone: await the query (or .execute() a prepared one), and take the first row with first(). ${ENGINE_SQL_HOME}`,
  },
  {
    selector: "CallExpression[arguments.length>0][callee.property.name=/^(all|run)$/]:not([callee.object.name='Promise'])",
    message: `A prepared statement's .all() and .run() are SQLite's alone: run it with .execute(values). ${ENGINE_SQL_HOME}`,
  },
  { selector: `Literal[value=${ENGINE_ONLY_FUNCTIONS}]`, message: `SQL one engine lacks. ${ENGINE_SQL_HOME}` },
  { selector: `TemplateElement[value.raw=${ENGINE_ONLY_FUNCTIONS}]`, message: `SQL one engine lacks. ${ENGINE_SQL_HOME}` },
  { selector: `Literal[value=${ENGINE_ONLY_PHRASES}]`, message: `SQL one engine lacks. ${ENGINE_SQL_HOME}` },
  { selector: `TemplateElement[value.raw=${ENGINE_ONLY_PHRASES}]`, message: `SQL one engine lacks. ${ENGINE_SQL_HOME}` },
];

export default tseslint.config(
  {
    ignores,
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  react.configs.flat.recommended,
  react.configs.flat["jsx-runtime"],
  {
    // The two classic hook rules. The React Compiler's diagnostics (the plugin's other rules) are left
    // out: this React 18 app runs without the compiler, and they cost about half of the lint's time.
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": ["error", { additionalHooks: "^useBrowserLayoutEffect$" }],
    },
  },
  jsxA11y.flatConfigs.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    // A disable comment that no longer suppresses anything is an error, so none outlive their reason.
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.node },
    },
    settings: {
      react: { version: "detect" },
      "import-x/resolver-next": [
        createTypeScriptImportResolver({ alwaysTryTypes: true, project: "./tsconfig.json" }),
        createNodeResolver(),
      ],
    },
    rules: {
      // TypeScript checks props; prop-types would say the same thing again.
      "react/prop-types": "off",
      // Apostrophes and quotes are plain text in JSX (SPEC's copy is full of them); `>` and `}` are likely typos.
      "react/no-unescaped-entities": ["error", { forbid: [">", "}"] }],
      // Members upload their own audio and video, which come without caption files: there is no <track> to give.
      "jsx-a11y/media-has-caption": "off",
      // Unused values are errors, but `_`-prefixed ones are deliberate (ignored arguments, rest omissions).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // typescript-eslint's resolver already knows every import; these re-check what tsc checks, slowly.
      "import-x/namespace": "off",
      "import-x/default": "off",
      "import-x/no-named-as-default-member": "off",
      "import-x/no-unresolved": "off",
      "import-x/no-restricted-paths": ["error", { zones: layers }],
    },
  },
  {
    // Cycles are looked for where they matter (and where the search is cheap): the app's own modules.
    files: ["app/**/*.{ts,tsx}"],
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Models hold no engine forks (ADR 0076): see engineOnlySql above. Their tests may ask the engine.
    files: ["app/models/**/*.{ts,tsx}"],
    ignores: ["app/models/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": ["error", ...engineOnlySql],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "~/utils/db.server",
              importNames: ["databaseEngine", "sqlite"],
              message: `Models do not ask which engine answers. ${ENGINE_SQL_HOME}`,
            },
          ],
        },
      ],
    },
  },
  {
    files: ["tests/e2e/**"],
    // Playwright hands each fixture a callback called `use`, which is not React's `use` hook.
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    files: ["tests/**"],
    // Tests read JSON answers loosely (`Record<string, any>`); a wrong shape fails the assertion anyway.
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // The service worker (bundled by scripts/build-sw.ts) runs in a worker, not a window.
    files: ["app/sw/**"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
);
