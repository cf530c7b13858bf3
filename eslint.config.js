// Lint rules for every workspace: typescript-eslint's recommended set (type-aware rules would double CI time
// on this machine), React's rules of hooks, and no console in the server (pino only).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "packages/e2e/test-results/**", "**/*.d.ts", "packages/server/src/db/migrations/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    files: ["packages/web/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
  {
    // The server logs through pino only. Terminal programs (the start banner, operator commands) print for
    // the person at the terminal, and tests may print what they measured.
    files: ["packages/server/src/**/*.ts"],
    ignores: [
      "packages/server/src/**/*.test.ts",
      "packages/server/src/test/**",
      "packages/server/src/main.ts",
      "packages/server/src/**/*-cli.ts",
      "packages/server/src/db/migrate-pglite.ts",
    ],
    rules: { "no-console": "error" },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly", Buffer: "readonly" } },
  },
);
