#!/usr/bin/env node
// Runs every suite (typecheck, lint, format, shared, server on the embedded PostgreSQL [and a PostgreSQL server],
// web, e2e) and ends with one line "N passed, N failed". Set TEST_DATABASE_URL to also run the server suite on a
// PostgreSQL server. `npm test -- <suite>…` runs only those suites.
//
// The server suite's two runs go at once, on two different PostgreSQL servers (each alone leaves about a fifth of
// the 2 cores idle waiting on its database). Then the web build and Playwright, then the shared and web unit tests,
// with the type checks, ESLint and Prettier beside them at the lowest CPU priority (nice: they have no timeouts to
// miss). Each suite's console is printed whole when it ends.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "balcao-tests-"));
const bin = (name) => path.join(root, "node_modules/.bin", name);
const results = [];
// Terminal colour codes, as Playwright writes them into its JSON report's error messages.
// eslint-disable-next-line no-control-regex
const ANSI_COLOURS = /\x1b\[[0-9;]*m/g;
const flakyTests = [];
/** Every test that failed (after its retry in CI), named again in the summary: a CI log is often read from its tail. */
const failedTests = [];
/** CPU priority of what runs beside a phase's main suites (nice(1): 0 is normal, 19 the lowest). */
const BESIDE_NICENESS = "19";

const only = process.argv.slice(2);
const wants = (name) => only.length === 0 || only.includes(name);
const slug = (label) => label.replace(/\W+/g, "-");
const firstLine = (text) => (text ?? "").split("\n")[0];

/**
 * Runs a command with its output in a file, printed whole when it ends (suites that run at once would otherwise
 * interleave their lines); resolves to its exit code.
 */
function run(label, command, args, { cwd = root, env = {}, beside = false } = {}) {
  const log = path.join(tmp, `${slug(label)}.log`);
  const started = Date.now();
  const [file, argv] = beside ? ["nice", ["-n", BESIDE_NICENESS, command, ...args]] : [command, args];
  console.log(`--> ${label}${beside ? " (beside, lower priority)" : ""}`);
  return new Promise((resolve) => {
    const out = createWriteStream(log);
    const child = spawn(file, argv, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on("error", (error) => out.write(`${error.stack}\n`));
    child.on("close", (code) =>
      out.end(() => {
        console.log(`\n=== ${label} (${Math.round((Date.now() - started) / 1000)} s) ===`);
        process.stdout.write(readFileSync(log));
        resolve(code ?? 1);
      }),
    );
  });
}

/** Steps one after the other (a lane); phases run lanes at once. */
async function lane(...steps) {
  for (const step of steps) await step();
}

function record(label, passed, failed) {
  results.push({ label, passed, failed });
  console.log(`--- ${label}: ${passed} passed, ${failed} failed`);
}

async function vitestSuite(label, workspace, { env = {}, beside = false } = {}) {
  const out = path.join(tmp, `${slug(label)}.json`);
  const cwd = path.join(root, workspace);
  const code = await run(label, bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile=${out}`], { cwd, env, beside });
  if (!existsSync(out)) return record(label, 0, 1);
  const json = JSON.parse(readFileSync(out, "utf8"));
  const failed = json.numFailedTests + (code !== 0 && json.numFailedTests === 0 ? 1 : 0);
  // A test that passed with failure messages failed first and passed on its retry (CI only): name it, so an
  // intermittent failure stays visible without failing the run. A failed test is named again in the summary.
  for (const file of json.testResults) {
    const where = path.relative(cwd, file.name);
    for (const t of file.assertionResults) {
      const error = firstLine(t.failureMessages[0]);
      if (t.status === "passed" && t.failureMessages.length > 0)
        flakyTests.push(`${label}: ${where} > ${t.fullName} (passed on retry; first error: ${error})`);
      if (t.status === "failed") failedTests.push(`${label}: ${where} > ${t.fullName} (${error})`);
    }
    // A file that failed outside any test (an import error, a failing hook) has no failed test to name.
    if (file.status === "failed" && file.assertionResults.every((t) => t.status !== "failed"))
      failedTests.push(`${label}: ${where} (${firstLine(file.message)})`);
  }
  record(label, json.numPassedTests, failed);
}

/**
 * TypeScript 7's native compiler (the `typescript-native` alias of typescript@7) type-checks; TypeScript 5.9 stays
 * the `typescript` that typescript-eslint and editors load (docs/decisions.md). Called by its path: both packages
 * name their command `tsc`, so node_modules/.bin/tsc is whichever npm linked last. Single-threaded: it runs beside
 * the server suites, which keep both cores busy, so its total CPU is what counts (server + web + shared: ~17 CPU
 * seconds against ~31 with its default 4 checkers and ~68 with TypeScript 5.9's tsc, 2026-12-02).
 */
const NATIVE_TSC = path.join(root, "node_modules/typescript-native/bin/tsc");

async function typecheck({ beside }) {
  let failed = 0;
  for (const pkg of ["packages/shared", "packages/server", "packages/web"]) {
    if (!existsSync(path.join(root, pkg, "tsconfig.json"))) continue;
    failed += (await run(`typecheck ${pkg}`, process.execPath, [NATIVE_TSC, "-p", pkg, "--noEmit", "--singleThreaded"], { beside })) === 0 ? 0 : 1;
  }
  record("typecheck", failed ? 0 : 1, failed ? 1 : 0);
}

async function lint({ beside }) {
  // ESLint over every workspace, no warning allowed (eslint.config.js).
  const eslint = await run("lint (ESLint)", bin("eslint"), ["--max-warnings", "0", "packages", "bench", "scripts", "eslint.config.js"], {
    beside,
  });
  record("lint", eslint === 0 ? 1 : 0, eslint === 0 ? 0 : 1);
  // Prettier decides layout (.prettierrc.json); `npm run format` rewrites, this only checks.
  const prettier = await run("format (Prettier)", bin("prettier"), ["--check", "--log-level", "warn", "."], { beside });
  record("format", prettier === 0 ? 1 : 0, prettier === 0 ? 0 : 1);
}

/**
 * The production build of the web app that the browser tests serve, with its manifest: the web suite's bundle
 * budget (packages/web/src/test/bundleBudget.test.ts) weighs this build instead of making its own (~14 s of CPU on
 * the 2-core CI machine). Unset when the browser tests did not build it (`npm test -- web` alone).
 */
let webBuild = null;

async function e2e() {
  const built = await run("build web", "npm", ["run", "build", "--workspace", "@balcao/web", "--", "--manifest"]);
  if (built !== 0) return record("e2e", 0, 1);
  webBuild = path.join(root, "packages/web/dist");
  // packages/e2e/playwright.config.ts writes its JSON report here.
  const out = path.join(root, "packages/e2e/test-results/results.json");
  rmSync(out, { force: true });
  const code = await run("e2e (Playwright, Chromium)", bin("playwright"), ["test"], { cwd: path.join(root, "packages/e2e") });
  if (!existsSync(out)) return record("e2e", 0, 1);
  const report = JSON.parse(readFileSync(out, "utf8"));
  const { stats } = report;
  const failed = stats.unexpected + (code !== 0 && stats.unexpected === 0 ? 1 : 0);
  // A spec that failed and passed on its retry (CI only, playwright.config.ts): named like the flaky unit tests; a
  // spec that failed, with its last attempt's error.
  const specs = (suite) => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
  const errorOf = (result) => firstLine(result?.error?.message?.replace(ANSI_COLOURS, ""));
  for (const spec of report.suites.flatMap(specs))
    for (const t of spec.tests) {
      const name = `e2e: ${spec.file} > ${spec.title} [${t.projectName}]`;
      if (t.status === "flaky") flakyTests.push(`${name} (passed on retry; first error: ${errorOf(t.results.find((r) => r.status !== "passed"))})`);
      if (t.status === "unexpected") failedTests.push(`${name} (${errorOf(t.results.at(-1))})`);
    }
  record("e2e", stats.expected + stats.flaky, failed);
}

// Phase 1: the server suite's runs, the two at once. Phase 2: the browser scenarios, then the unit tests of shared
// and web, not beside each other: beside Playwright, a web test (CampaignModal's validation) ran past its 30 s
// timeout twice in one of three clean-clone CIs. The static checks run beside phase 2 at the lowest CPU priority
// (they have no timeouts to miss): the server runs keep both cores busy, while Playwright leaves a fifth of them
// idle (its specs waiting on the app's clock) and the web tests a tenth.
// TEST_DATABASE_URL emptied: with it inherited (CI sets it for the run), this run went to that server too.
const serverRuns = [];
if (wants("server")) serverRuns.push(vitestSuite("server (embedded PostgreSQL)", "packages/server", { env: { TEST_DATABASE_URL: "" } }));
if (wants("server") && process.env.TEST_DATABASE_URL)
  serverRuns.push(vitestSuite("server (PostgreSQL)", "packages/server", { env: { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL } }));
await Promise.all(serverRuns);

const browserAndUnit = wants("e2e") || wants("shared") || wants("web");
await Promise.all([
  lane(
    async () => wants("e2e") && (await e2e()),
    async () => wants("shared") && (await vitestSuite("shared", "packages/shared")),
    async () => wants("web") && (await vitestSuite("web", "packages/web", { env: webBuild ? { BUNDLE_BUDGET_DIST: webBuild } : {} })),
  ),
  lane(
    async () => wants("typecheck") && (await typecheck({ beside: browserAndUnit })),
    async () => wants("lint") && (await lint({ beside: browserAndUnit })),
  ),
]);

rmSync(tmp, { recursive: true, force: true });
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log("\nSummary:");
for (const line of flakyTests) console.log(`  [flaky] ${line}`);
for (const line of failedTests) console.log(`  [failed] ${line}`);
for (const r of results) console.log(`  ${r.label}: ${r.passed} passed, ${r.failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
