#!/usr/bin/env node
// Runs every suite (typecheck, shared, server on the embedded PostgreSQL [and a PostgreSQL server], web,
// e2e) and ends with one line "N passed, N failed". Set TEST_DATABASE_URL to also run the server suite on a PostgreSQL server.
import { spawn, spawnSync } from "node:child_process";
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

function run(label, command, args, { cwd = root, env = {} } = {}) {
  console.log(`\n=== ${label} ===`);
  const res = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, stdio: "inherit" });
  return res.status ?? 1;
}

const vitestArgs = (out) => ["run", "--reporter=default", "--reporter=json", `--outputFile=${out}`];
const reportFile = (label) => path.join(tmp, `${label.replace(/\W+/g, "-")}.json`);

function vitestSuite(label, workspace, env = {}) {
  const out = reportFile(label);
  const cwd = path.join(root, workspace);
  recordVitest(label, cwd, out, run(label, bin("vitest"), vitestArgs(out), { cwd, env }));
}

/**
 * Several vitest suites at once, each writing its console to a file that is printed when it ends: the two
 * server suites each leave about a third of the 2 cores idle (waiting on their PostgreSQL), and they run on two
 * different servers (the embedded one of the run and TEST_DATABASE_URL's), so neither waits for the other's.
 */
async function vitestSuitesAtOnce(suites) {
  console.log(`\n=== ${suites.map((s) => s.label).join(" + ")} (at once) ===`);
  await Promise.all(
    suites.map(({ label, workspace, env }) => {
      const out = reportFile(label);
      const log = path.join(tmp, `${label.replace(/\W+/g, "-")}.log`);
      const cwd = path.join(root, workspace);
      const started = Date.now();
      return new Promise((resolve) => {
        const file = createWriteStream(log);
        const child = spawn(bin("vitest"), vitestArgs(out), { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
        child.stdout.pipe(file, { end: false });
        child.stderr.pipe(file, { end: false });
        child.on("close", (code) => {
          file.end(() => {
            console.log(`\n=== ${label} (${Math.round((Date.now() - started) / 1000)} s) ===`);
            process.stdout.write(readFileSync(log));
            recordVitest(label, cwd, out, code ?? 1);
            resolve();
          });
        });
      });
    }),
  );
}

function recordVitest(label, cwd, out, code) {
  if (!existsSync(out)) return record(label, 0, 1);
  const json = JSON.parse(readFileSync(out, "utf8"));
  const failed = json.numFailedTests + (code !== 0 && json.numFailedTests === 0 ? 1 : 0);
  // A test that passed with failure messages failed first and passed on its retry (CI only): name it, so an
  // intermittent failure stays visible without failing the run.
  const flaky = json.testResults.flatMap((file) =>
    file.assertionResults
      .filter((t) => t.status === "passed" && t.failureMessages.length > 0)
      .map((t) => ({ name: `${path.relative(cwd, file.name)} > ${t.fullName}`, error: t.failureMessages[0].split("\n")[0] })),
  );
  for (const t of flaky) flakyTests.push(`${label}: ${t.name} (passed on retry; first error: ${t.error})`);
  return record(label, json.numPassedTests, failed);
}

function record(label, passed, failed) {
  results.push({ label, passed, failed });
  console.log(`--- ${label}: ${passed} passed, ${failed} failed`);
}

const only = process.argv.slice(2);
const wants = (name) => only.length === 0 || only.includes(name);

if (wants("typecheck")) {
  let failed = 0;
  for (const pkg of ["packages/shared", "packages/server", "packages/web"]) {
    if (!existsSync(path.join(root, pkg, "tsconfig.json"))) continue;
    failed += run(`typecheck ${pkg}`, bin("tsc"), ["-p", pkg, "--noEmit"]) === 0 ? 0 : 1;
  }
  record("typecheck", failed ? 0 : 1, failed ? 1 : 0);
}
if (wants("lint")) {
  // ESLint over every workspace, no warning allowed (eslint.config.js).
  const eslint = run("lint (ESLint)", bin("eslint"), ["--max-warnings", "0", "packages", "bench", "scripts", "eslint.config.js"]);
  record("lint", eslint === 0 ? 1 : 0, eslint === 0 ? 0 : 1);
  // Prettier decides layout (.prettierrc.json); `npm run format` rewrites, this only checks.
  const prettier = run("format (Prettier)", bin("prettier"), ["--check", "--log-level", "warn", "."]);
  record("format", prettier === 0 ? 1 : 0, prettier === 0 ? 0 : 1);
}
if (wants("shared")) vitestSuite("shared", "packages/shared");
// TEST_DATABASE_URL emptied: with it inherited (CI sets it for the run), this suite ran on that server too.
if (wants("server")) {
  const suites = [{ label: "server (embedded PostgreSQL)", workspace: "packages/server", env: { TEST_DATABASE_URL: "" } }];
  if (process.env.TEST_DATABASE_URL)
    suites.push({ label: "server (PostgreSQL)", workspace: "packages/server", env: { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL } });
  if (suites.length === 1) vitestSuite(suites[0].label, suites[0].workspace, suites[0].env);
  else await vitestSuitesAtOnce(suites);
}
if (wants("web")) vitestSuite("web", "packages/web");
if (wants("e2e")) {
  const built = run("build web", "npm", ["run", "build", "--workspace", "@balcao/web"]);
  if (built !== 0) record("e2e", 0, 1);
  else {
    // packages/e2e/playwright.config.ts writes its JSON report here.
    const out = path.join(root, "packages/e2e/test-results/results.json");
    rmSync(out, { force: true });
    const code = run("e2e (Playwright, Chromium)", bin("playwright"), ["test"], { cwd: path.join(root, "packages/e2e") });
    if (!existsSync(out)) record("e2e", 0, 1);
    else {
      const report = JSON.parse(readFileSync(out, "utf8"));
      const { stats } = report;
      const failed = stats.unexpected + (code !== 0 && stats.unexpected === 0 ? 1 : 0);
      // A spec that failed and passed on its retry (CI only, playwright.config.ts): named like the flaky unit tests.
      const specs = (suite) => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
      for (const spec of report.suites.flatMap(specs))
        for (const t of spec.tests.filter((t) => t.status === "flaky")) {
          const error =
            t.results
              .find((r) => r.status !== "passed")
              ?.error?.message?.replace(ANSI_COLOURS, "")
              .split("\n")[0] ?? "";
          flakyTests.push(`e2e: ${spec.file} > ${spec.title} [${t.projectName}] (passed on retry; first error: ${error})`);
        }
      record("e2e", stats.expected + stats.flaky, failed);
    }
  }
}

rmSync(tmp, { recursive: true, force: true });
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log("\nSummary:");
for (const line of flakyTests) console.log(`  [flaky] ${line}`);
for (const r of results) console.log(`  ${r.label}: ${r.passed} passed, ${r.failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
