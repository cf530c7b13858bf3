import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp, type App } from "../packages/server/src/app";
import { loadConfig } from "../packages/server/src/config/env";
import { createContext, type AppContext } from "../packages/server/src/context";
import { openDatabase } from "../packages/server/src/db/client";

/** The real app on a fresh database: the embedded PostgreSQL, or BENCH_DATABASE_URL (an empty database). */
export async function benchApp(): Promise<{ app: App; ctx: AppContext; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "balcao-bench-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString("hex"),
    JWT_REFRESH_SECRET: randomBytes(32).toString("hex"),
    WEB_DIST: path.join(dataDir, "none"),
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  });
  // NODE_ENV=test for its cheap password hash and no channel autostart, but without the suites' check of every
  // answer against its documented schema (a JSON parse and a zod walk per response), which production never runs.
  config.checkResponseSchemas = false;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const ctx = createContext(config, database);
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    close: async () => {
      await app.close();
      await database.close();
      // Each run's embedded cluster is tens of MB: leave none behind.
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * How long `measure` runs a case unmeasured first (at least its `warmup` runs): a server in production answers
 * each route warm. Ten runs did not get there. Over the first 5–10 s of back-to-back history pages in a process,
 * about one answer in ten came 1–3 ms late, and the delay was on this process's side: PostgreSQL's log showed no
 * slow execution, and the answers' p95 fell from 3.9 to 1.6–2.0 ms by the tenth second (2026-12-03,
 * bench/README.md "messages-history").
 */
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 8000);

/**
 * Runs `fn` unmeasured at least `warmup` times and for at least `BENCH_WARMUP_MS`, then `runs` times; returns
 * milliseconds per run.
 */
export async function measure(fn: () => Promise<unknown>, runs: number, warmup = 10): Promise<number[]> {
  const warmUntil = performance.now() + WARMUP_MS;
  for (let i = 0; i < warmup || performance.now() < warmUntil; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out;
}

export function report(name: string, samples: number[], baseline?: number[]): void {
  const p50 = percentile(samples, 50);
  const p95 = percentile(samples, 95);
  let line = `${name.padEnd(48)} p50 ${p50.toFixed(2).padStart(8)} ms   p95 ${p95.toFixed(2).padStart(8)} ms`;
  if (baseline) line += `   ×${(p95 / percentile(baseline, 95)).toFixed(2)} of raw SQL p95`;
  console.log(line);
}

/**
 * CPU time (ms) of every process descending from this one (the embedded PostgreSQL and its backends), with the
 * children they have reaped; Linux only (0 elsewhere). Read beside `process.cpuUsage()`, it gives CPU per unit
 * of work, which, unlike latency, holds when other work shares the machine.
 */
export function descendantsCpuMs(root = process.pid): number {
  const procs: { pid: number; ppid: number; ticks: number }[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After the command's ")": state, ppid, … utime (14th field), stime, cutime, cstime.
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.push({ pid: Number(entry), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // The process ended while we looked.
    }
  }
  const inTree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of procs)
      if (!inTree.has(p.pid) && inTree.has(p.ppid)) {
        inTree.add(p.pid);
        grew = true;
      }
  }
  // Linux reports CPU in clock ticks of 1/100 s (USER_HZ).
  return procs.filter((p) => p.pid !== root && inTree.has(p.pid)).reduce((sum, p) => sum + p.ticks * 10, 0);
}
