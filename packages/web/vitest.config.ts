import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { errorCatalogue } from "./vite.config.ts";

export default defineConfig({
  plugins: [react(), errorCatalogue()],
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    restoreMocks: true,
    testTimeout: 30_000,
    // As in the server suite: in CI a failed test runs once more and scripts/test-all.mjs names it.
    retry: process.env.CI ? 1 : 0,
  },
});
