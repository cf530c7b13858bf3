import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { errorCatalogue } from "./vite.config.ts";

const include = ["src/**/*.test.{ts,tsx}"];
// Test files that replace or reload modules (vi.mock, vi.doMock, vi.resetModules) run each in a fresh module
// graph; the others share one per worker, so React, MUI and the app's modules are imported once per worker
// instead of once per file.
const replacesModules = readdirSync(path.join(import.meta.dirname, "src"), { recursive: true, encoding: "utf8" })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `src/${file.split(path.sep).join("/")}`)
  .filter((file) => /\bvi\.(mock|doMock|unmock|resetModules)\(/.test(readFileSync(path.join(import.meta.dirname, file), "utf8")));

export default defineConfig({
  plugins: [react(), errorCatalogue()],
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    restoreMocks: true,
    testTimeout: 30_000,
    // vitest's default is one worker per core but one: a single worker on the 2-core CI machine.
    maxWorkers: 2,
    // As in the server suite: in CI a failed test runs once more and scripts/test-all.mjs names it.
    retry: process.env.CI ? 1 : 0,
    projects: [
      { extends: true, test: { name: "shared modules", include, exclude: replacesModules, isolate: false } },
      { extends: true, test: { name: "own modules", include: replacesModules, isolate: true } },
    ],
  },
});
