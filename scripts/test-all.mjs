#!/usr/bin/env node
// Runs every suite (typecheck, shared, server on the embedded PostgreSQL [and a PostgreSQL server], web,
// e2e) and ends with one line "N passed, N failed". Set TEST_DATABASE_URL to also run the server suite on a PostgreSQL server.
//
// The suites run in lanes, side by side: the browser tests (web build, then Playwright) spend most of their
// time waiting on the app (a send scheduled for the next minute, a connection alert's delay), and so do the
// server suites (timers, PostgreSQL); a lane runs its suites one after the other. The browser lane keeps the
// priority it was started with and the others run at a lower one, so the browser tests keep their timing.
// The first lane prints as it goes; every other lane's output is held and printed as one block when the
// lane is done, between two suites of the first lane (or at the end).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "balcao-tests-"));
const bin = (name) => path.join(root, "node_modules/.bin", name);
const results = [];
const flakyTests = [];
const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
/** How much lower than this script the programs of the lanes other than the browser's run (nice). */
const LOWER_PRIORITY = 10;

/** A lane's output: printed as it comes, or held until the lane is done. */
function output(held) {
  const chunks = [];
  return {
    held,
    write(text) {
      if (held) chunks.push(text);
      else process.stdout.write(text);
    },
    flush() {
      if (chunks.length > 0) process.stdout.write(chunks.splice(0).join(""));
    },
  };
}

function run(out, label, command, args, { cwd = root, env = {}, lower = true } = {}) {
  out.write(`\n=== ${label} ===\n`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: out.held ? ["ignore", "pipe", "pipe"] : "inherit" });
    if (lower && child.pid) {
      try {
        os.setPriority(child.pid, Math.min(19, os.getPriority() + LOWER_PRIORITY));
      } catch {
        // Only an optimisation.
      }
    }
    child.stdout?.on("data", (b) => out.write(b.toString()));
    child.stderr?.on("data", (b) => out.write(b.toString()));
    child.on("error", (err) => out.write(`${err.message}\n`));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

async function vitestSuite(out, label, workspace, env = {}) {
  const file = path.join(tmp, `${label.replace(/\W+/g, "-")}.json`);
  const cwd = path.join(root, workspace);
  const code = await run(out, label, bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile=${file}`], { cwd, env });
  if (!existsSync(file)) return record(out, label, 0, 1);
  const json = JSON.parse(readFileSync(file, "utf8"));
  const failed = json.numFailedTests + (code !== 0 && json.numFailedTests === 0 ? 1 : 0);
  // A test that passed with failure messages failed first and passed on its retry (CI only): name it, so an
  // intermittent failure stays visible without failing the run.
  const flaky = json.testResults.flatMap((f) =>
    f.assertionResults
      .filter((t) => t.status === "passed" && t.failureMessages.length > 0)
      .map((t) => ({ name: `${path.relative(cwd, f.name)} > ${t.fullName}`, error: t.failureMessages[0].split("\n")[0] })),
  );
  for (const t of flaky) flakyTests.push(`${label}: ${t.name} (passed on retry; first error: ${t.error})`);
  return record(out, label, json.numPassedTests, failed);
}

function record(out, label, passed, failed) {
  results.push({ label, passed, failed });
  out.write(`--- ${label}: ${passed} passed, ${failed} failed\n`);
}

/** The suites; those of one lane run one after the other, in this order. */
const suites = [
  {
    name: "typecheck",
    lane: 0,
    async run(out) {
      let failed = 0;
      for (const pkg of ["packages/shared", "packages/server", "packages/web"]) {
        if (!existsSync(path.join(root, pkg, "tsconfig.json"))) continue;
        failed += (await run(out, `typecheck ${pkg}`, bin("tsc"), ["-p", pkg, "--noEmit"])) === 0 ? 0 : 1;
      }
      record(out, "typecheck", failed ? 0 : 1, failed ? 1 : 0);
    },
  },
  {
    name: "lint",
    lane: 0,
    async run(out) {
      // ESLint over every workspace, no warning allowed (eslint.config.js).
      const eslint = await run(out, "lint (ESLint)", bin("eslint"), ["--max-warnings", "0", "packages", "bench", "scripts", "eslint.config.js"]);
      record(out, "lint", eslint === 0 ? 1 : 0, eslint === 0 ? 0 : 1);
      // Prettier decides layout (.prettierrc.json); `npm run format` rewrites, this only checks.
      const prettier = await run(out, "format (Prettier)", bin("prettier"), ["--check", "--log-level", "warn", "."]);
      record(out, "format", prettier === 0 ? 1 : 0, prettier === 0 ? 0 : 1);
    },
  },
  { name: "shared", lane: 0, run: (out) => vitestSuite(out, "shared", "packages/shared") },
  { name: "server", lane: 1, run: (out) => vitestSuite(out, "server (embedded PostgreSQL)", "packages/server") },
  {
    name: "server",
    lane: 1,
    run: process.env.TEST_DATABASE_URL
      ? (out) => vitestSuite(out, "server (PostgreSQL)", "packages/server", { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL })
      : undefined,
  },
  { name: "web", lane: 0, run: (out) => vitestSuite(out, "web", "packages/web") },
  {
    name: "e2e",
    lane: 2,
    async run(out) {
      const built = await run(out, "build web", "npm", ["run", "build", "--workspace", "@balcao/web"], { lower: false });
      if (built !== 0) return record(out, "e2e", 0, 1);
      // packages/e2e/playwright.config.ts writes its JSON report here.
      const file = path.join(root, "packages/e2e/test-results/results.json");
      rmSync(file, { force: true });
      const code = await run(out, "e2e (Playwright, Chromium)", bin("playwright"), ["test"], { cwd: path.join(root, "packages/e2e"), lower: false });
      if (!existsSync(file)) return record(out, "e2e", 0, 1);
      const { stats } = JSON.parse(readFileSync(file, "utf8"));
      const failed = stats.unexpected + (code !== 0 && stats.unexpected === 0 ? 1 : 0);
      record(out, "e2e", stats.expected + stats.flaky, failed);
    },
  },
];

const only = process.argv.slice(2);
const chosen = suites.filter((s) => s.run && (only.length === 0 || only.includes(s.name)));
const laneIds = [...new Set(chosen.map((s) => s.lane))].sort();
const outputs = new Map(laneIds.map((id, i) => [id, output(i > 0)]));
const done = new Set();
const flushDone = () => {
  for (const id of done) outputs.get(id).flush();
};
await Promise.all(
  laneIds.map(async (id, i) => {
    const out = outputs.get(id);
    for (const suite of chosen.filter((s) => s.lane === id)) {
      await suite.run(out);
      if (i === 0) flushDone();
    }
    const names = chosen.filter((s) => s.lane === id).map((s) => s.name);
    out.write(`(lane of ${names.join(", ")}: done at ${elapsed()})\n`);
    done.add(id);
    // Once the first lane is done, a lane's block goes out as soon as the lane is.
    if (done.has(laneIds[0])) flushDone();
  }),
);
flushDone();

rmSync(tmp, { recursive: true, force: true });
const ORDER = ["typecheck", "lint", "format", "shared", "server (embedded PostgreSQL)", "server (PostgreSQL)", "web", "e2e"];
results.sort((a, b) => ORDER.indexOf(a.label) - ORDER.indexOf(b.label));
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`\nSummary (${elapsed()}):`);
for (const line of flakyTests) console.log(`  [flaky] ${line}`);
for (const r of results) console.log(`  ${r.label}: ${r.passed} passed, ${r.failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
