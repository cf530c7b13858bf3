import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * The specs that sign in as the platform super user (support/world.ts, SUPER). Signing in ends the user's other
 * sessions, so they never run beside each other: one worker per project below, and the projects one after the other.
 */
const SUPER_USER_SPECS = ["accessibility-super.spec.ts", "billing.spec.ts", "platform-admin.spec.ts", "xss.spec.ts"];
/**
 * Of those, the ones that publish platform announcements: an announcement reaches every company's pages of its
 * server (a toast, a dialog for a high-priority one) and would change what the other specs see, so they run on a
 * server of their own (webServer below). On the shared one they ran after all the others, one worker for the
 * run's last ~26 s of 174 (2026-12-02).
 */
const ANNOUNCING_SPECS = ["platform-admin.spec.ts", "xss.spec.ts"];
/**
 * The specs that spend most of their time waiting on the app's clock (a schedule or a campaign for the next
 * minute, a connection alert's 1-minute delay, a 24-hour window that closes 40 s later): dispatched first (a
 * project's files go in alphabetical order, the projects in the order below), so they wait beside the specs
 * that keep the CPU busy instead of forming the run's tail.
 */
const LONG_WAIT_SPECS = ["cloud-api.spec.ts", "connection-alerts.spec.ts", "schedules.spec.ts", "campaigns.spec.ts"];
/**
 * Debian's headless shell (package chromium-headless-shell) when the machine has it, else Debian's full Chromium in
 * its headless mode. Both are the same Chromium release (Blink, V8, the network stack); the shell leaves out the
 * desktop browser's UI layer, which headless tests never show. It is what Playwright itself runs for headless
 * Chromium. On a slow 2-core machine (2026-11-29) the whole run took 909 s with it (one spec retried) and 1023 s with the full
 * browser, and users + tickets alone 30 s against 37 s. E2E_CHROMIUM picks a binary.
 */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
const CHROMIUM = process.env.E2E_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
const PORT = Number(process.env.E2E_PORT ?? 8091);
const baseURL = `http://127.0.0.1:${PORT}`;
// The fake Graph API (packages/server/src/channels/cloudapi/fakeGraph.ts) that cloud-api.spec.ts starts on
// this port; the server under test talks to it as its WhatsApp Cloud API. No other spec calls the Graph API.
const CLOUD_API_PORT = Number(process.env.E2E_CLOUD_API_PORT ?? PORT + 1);
process.env.E2E_CLOUD_API_PORT = String(CLOUD_API_PORT);
// The announcing specs' own server (ANNOUNCING_SPECS).
const ANNOUNCEMENTS_PORT = Number(process.env.E2E_ANNOUNCEMENTS_PORT ?? PORT + 2);
// A fresh database for every run (the server migrates it and seeds the super user on boot).
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), `balcao-e2e-${process.pid}-`));
process.env.E2E_DATA_DIR = dataDir; // the config is evaluated again in the worker: keep one directory
const announcementsDataDir = process.env.E2E_ANNOUNCEMENTS_DATA_DIR ?? mkdtempSync(join(tmpdir(), `balcao-e2e-announcements-${process.pid}-`));
process.env.E2E_ANNOUNCEMENTS_DATA_DIR = announcementsDataDir;

/** The server under test (the product as `npm start` runs it, on its embedded PostgreSQL in `dir`). */
function server(port: number, dir: string) {
  return {
    command: "node ../../node_modules/tsx/dist/cli.mjs ../server/src/main.ts",
    cwd: import.meta.dirname,
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM lets the server stop its embedded PostgreSQL (Playwright's default is SIGKILL to the group).
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 20_000 },
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(port),
      DATA_DIR: dir,
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
  };
}

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: "test-results/artifacts",
  fullyParallel: false,
  // Four workers at most: two for the specs that mostly wait on the app's clock (projects below) and two for the
  // rest, so two Chromiums keep the CPU busy while the long waits sleep. On this 2-core machine (2026-11-28, a
  // faster VM than before) the run took 360 s with two workers (the long waits one after the other beside one
  // busy worker), 324 s with three, 278 s with four, the CPU ~99% busy until the announcements and no retry. On a
  // slower 2-core machine (fork/exec 3.6 ms) three busy Chromiums, the server and its database left pages on
  // "Carregando..." past every timeout (14 specs failed twice in CI): hence never more than two busy workers. Each
  // spec signs up its own company; the specs that sign in as the platform super user run one at a time (projects
  // below): signing in ends the user's other sessions.
  workers: 4,
  // In CI a spec that fails runs once more (as the server and web suites' tests do), so a timing race on a
  // loaded 2-core machine does not hold back a stop; scripts/test-all.mjs names every spec that needed it.
  retries: process.env.CI ? 1 : 0,
  // Twice what a quiet machine needs: on a slow one a spec took 40–55 s of its 60 s and a page 8 s to its first
  // list (traces of 2026-11-28). A failure still shows as one; it only waits longer before saying so.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/results.json" }]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL,
    headless: true,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    // Recorded on a spec's retry only (CI retries once), so a failure still leaves its trace. Recording every
    // attempt (DOM snapshots and screenshots of each action) made the specs ~40% slower: users, tickets and
    // contacts alone took 55 s with it and 33 s without (2026-11-29, one worker, this 2-core machine).
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    },
  },
  projects: [
    // Two at a time: they mostly sleep, and the two workers of the busy specs run beside them.
    { name: "chromium, long waits", testMatch: LONG_WAIT_SPECS, workers: 2 },
    // Beside the others: these change only their own company (billing.spec.ts moves its due date back).
    { name: "chromium, super user", testMatch: SUPER_USER_SPECS.filter((spec) => !ANNOUNCING_SPECS.includes(spec)), workers: 1 },
    // On their own server, so beside the others (ANNOUNCING_SPECS); its super user is another server's, so its
    // sign-ins end no session of the project above. Listed before the busy project, they take the fourth worker
    // first: with the super user's specs, two busy workers at the start, then the two of the busy project.
    { name: "chromium, announcements", testMatch: ANNOUNCING_SPECS, workers: 1, use: { baseURL: `http://127.0.0.1:${ANNOUNCEMENTS_PORT}` } },
    { name: "chromium", testIgnore: [...LONG_WAIT_SPECS, ...SUPER_USER_SPECS], workers: 2 },
  ],
  // Started one after the other (~3.6 s each on a quiet machine): the second is the announcing specs' own.
  webServer: [server(PORT, dataDir), server(ANNOUNCEMENTS_PORT, announcementsDataDir)],
});
