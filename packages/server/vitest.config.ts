import { defineConfig } from "vitest/config";
import LongestFirst from "./src/test/longestFirst";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["./src/test/globalSetup.ts"],
    setupFiles: ["./src/test/tenantGuard.ts"],
    environment: "node",
    // Twice a quiet machine's need: on a 2-core machine twice as slow (2026-11-28), the kill -9 takeover test of
    // schedules.test (a second server process booted through tsx) ran past 30 s with both server runs at once.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    // Each worker imports the app's modules once, not once per test file (~90 s of the suite's CPU went to
    // re-importing them): every file builds its own app on its own database (test/testApp.ts), and
    // test/tenantGuard.ts wraps pg once per worker.
    isolate: false,
    // In CI one intermittent failure (a timing race on a loaded 2-core machine) must not hold back a whole
    // stop: a failed test runs once more, and scripts/test-all.mjs lists every test that needed it.
    retry: process.env.CI ? 1 : 0,
    sequence: { sequencer: LongestFirst },
  },
});
