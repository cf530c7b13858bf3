import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

/** The specs that sign in as the platform super user (support/world.ts, SUPER). */
const SUPER_USER_SPECS = ["accessibility-super.spec.ts", "billing.spec.ts", "platform-admin.spec.ts", "xss.spec.ts"];
const PORT = Number(process.env.E2E_PORT ?? 8091);
const baseURL = `http://127.0.0.1:${PORT}`;
// The fake Graph API (packages/server/src/channels/cloudapi/fakeGraph.ts) that cloud-api.spec.ts starts on
// this port; the server under test talks to it as its WhatsApp Cloud API. No other spec calls the Graph API.
const CLOUD_API_PORT = Number(process.env.E2E_CLOUD_API_PORT ?? PORT + 1);
process.env.E2E_CLOUD_API_PORT = String(CLOUD_API_PORT);
// A fresh database for every run (the server migrates it and seeds the super user on boot).
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), `balcao-e2e-${process.pid}-`));
process.env.E2E_DATA_DIR = dataDir; // the config is evaluated again in the worker: keep one directory

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: "test-results/artifacts",
  fullyParallel: false,
  // Three spec files at a time: most of a spec's time is spent waiting on the app (a campaign or a schedule
  // for the next minute, a connection alert's delay), not on the CPU. Each spec signs up its own company; the
  // specs that sign in as the platform super user run one after the other, at the end (below): signing in
  // ends the user's other sessions.
  workers: 3,
  // In CI a spec that fails runs once more (as the server and web suites' tests do), so a timing race on a
  // loaded 2-core machine does not hold back a stop; scripts/test-all.mjs names every spec that needed it.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/results.json" }]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL,
    headless: true,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    },
  },
  projects: [
    { name: "chromium", testIgnore: SUPER_USER_SPECS },
    // After the others, not beside them: the platform's announcements these specs publish reach every
    // company's pages (a toast, a dialog for a high-priority one) and would change what the other specs see.
    { name: "chromium, super user", testMatch: SUPER_USER_SPECS, workers: 1, dependencies: ["chromium"] },
  ],
  webServer: {
    command: "node ../../node_modules/tsx/dist/cli.mjs ../server/src/main.ts",
    cwd: import.meta.dirname,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM lets the server stop its embedded PostgreSQL (Playwright's default is SIGKILL to the group).
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      NODE_ENV: "test",
      ADMIN_EMAIL: "super@balcao.test",
      ADMIN_PASSWORD: "Sup3r-Secret!",
      LOGIN_RATE_LIMIT: "1000",
      // Every spec signs up its own company from the same address.
      SIGNUP_RATE_LIMIT: "1000",
      CLOUD_API_BASE_URL: `http://127.0.0.1:${CLOUD_API_PORT}`,
      CLOUD_API_VERSION: "v23.0",
      // connection-alerts.spec.ts points the company's alert e-mails at an SMTP receiver on 127.0.0.1: the
      // server refuses private and loopback SMTP hosts (like webhook targets) unless this is set.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    },
  },
});
