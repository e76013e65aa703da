// The lint rules that need the type checker, run by `npm run typecheck` (beside tsc) rather than
// `npm run lint`: building the program for them costs more than every rule of eslint.config.js
// together (about 75 s of a 110 s lint from a clean clone).
import { importX } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { ignores } from "./eslint.config.js";

export default tseslint.config(
  { ignores: [...ignores, "app/sw/**"] },
  {
    // A forgotten `await` must not slip through (issue 25: the data layer is asynchronous, and a
    // promise left floating is a write that may never happen, or a check that always passes). The
    // project's tsconfig gives the types (the service worker has its own and is left out).
    files: ["**/*.{ts,tsx}"],
    // Disable comments name eslint.config.js's rules: their plugins are known here (none of their
    // rules on), and no comment counts as "unused".
    linterOptions: { reportUnusedDisableDirectives: "off" },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: {
      "@typescript-eslint": tseslint.plugin,
      "import-x": importX,
      "jsx-a11y": jsxA11y,
      react,
      "react-hooks": reactHooks,
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      // An async event handler in JSX is fine: React ignores what a handler returns.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
);
