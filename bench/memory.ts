/**
 * Issue 26 benchmark: the memory a small install needs. Runs the real server the way `npm start` does
 * (compiled dist/bin/main.js, development mode, demo data, simulator) as a child process on a fresh DATA_DIR, and reads PSS
 * (proportional set size: shared pages split between the processes sharing them, so the sum is what
 * the install really costs) from /proc/<pid>/smaps_rollup for the server and every process it started
 * (the embedded PostgreSQL and its backends). Phases: at rest, after BENCH_MEMORY_LOAD (600) inbound
 * messages at BENCH_MEMORY_RATE (20) msg/s through the simulator's HTTP API, over a soak at the same rate
 * (BENCH_MEMORY_SOAK_SECONDS, 60 by default; 600 for the 10-minute soak), then per WhatsApp session with
 * BENCH_MEMORY_SESSIONS (100) simulator connections. Then the same on BENCH_DATABASE_URL (an external
 * PostgreSQL; a scratch database is created and dropped), where only the Node processes are ours.
 * Baseline, same run: an idle bare `node` process and an idle bare embedded PostgreSQL (same binaries,
 * same settings, nothing of ours in it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import { eq } from "drizzle-orm";
import pino from "pino";
import pg from "pg";
import { io, type Socket } from "socket.io-client";
import { BaileysProvider, type BaileysLib } from "../packages/server/src/channels/baileys/provider";
import { MAX_MESSAGES_PER_PHONE as SIMULATOR_MESSAGES_PER_PHONE } from "../packages/server/src/channels/simulator/provider";
import { startEmbeddedPostgres } from "../packages/server/src/db/embedded";
import { companies, connections, plans, users } from "../packages/server/src/db/schema";
import { benchApp } from "./lib";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LOAD = Number(process.env.BENCH_MEMORY_LOAD ?? 600);
const RATE = Number(process.env.BENCH_MEMORY_RATE ?? 20);
const SOAK_SECONDS = Number(process.env.BENCH_MEMORY_SOAK_SECONDS ?? 60);
const SESSIONS = Number(process.env.BENCH_MEMORY_SESSIONS ?? 100);
/** Issue 21 item 5: how long the per-session step holds its sessions, customers writing meanwhile. */
const SESSION_SOAK_SECONDS = Number(process.env.BENCH_MEMORY_SESSION_SOAK_SECONDS ?? 60);
const SESSION_SOAK_RATE = Number(process.env.BENCH_MEMORY_SESSION_SOAK_RATE ?? 10);
/**
 * Customers writing during the load and the soak. The simulator keeps each phone's last messages (a bounded buffer
 * of MAX_MESSAGES_PER_PHONE): with 50 phones it fills until minute 7.8 of a 10-minute soak at 20 msg/s, inside the
 * last half whose trend the soak reports; with 20 it is full from minute 2.8, so that trend is the server's own.
 */
const PHONES = Number(process.env.BENCH_MEMORY_PHONES ?? 50);
const ADMIN = { email: "bench@balcao.test", password: "Bench-Secret-1" };

// ---------------------------------------------------------------- /proc

interface Proc {
  pid: number;
  ppid: number;
  args: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      out.push({ pid: Number(entry), ppid, args: readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim() });
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

function tree(rootPid: number): Proc[] {
  const all = processes();
  const found = all.filter((p) => p.pid === rootPid);
  for (let i = 0; i < found.length; i++) for (const p of all) if (p.ppid === found[i]!.pid) found.push(p);
  return found;
}

function rollup(pid: number): { pss: number; rss: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0);
    return { pss: kb("Pss"), rss: kb("Rss") };
  } catch {
    return { pss: 0, rss: 0 };
  }
}

interface Sample {
  /** Everything the server started, in MB. */
  totalPss: number;
  nodePss: number;
  /** The process running main.js (compiled) or main.ts (not tsx's launcher). */
  serverPss: number;
  serverRss: number;
  postgresPss: number;
  postgresProcesses: number;
  /** Helper processes beside the server (tsx's esbuild service). */
  others: string[];
}

const isPostgres = (p: Proc) => /(^|\/)postgres(\s|$)|^postgres:/.test(p.args);

function sample(rootPid: number): Sample {
  let node = 0;
  let postgres = 0;
  let count = 0;
  let server = { pss: 0, rss: 0 };
  const others: string[] = [];
  for (const p of tree(rootPid)) {
    const m = rollup(p.pid);
    if (isPostgres(p)) {
      postgres += m.pss;
      count++;
    } else {
      node += m.pss;
      if (/main\.(ts|js)/.test(p.args)) server = m;
      else others.push(`${path.basename(p.args.split(" ")[0] ?? "?")} ${f(m.pss / 1024).trim()}`);
    }
  }
  const mb = (kb: number) => kb / 1024;
  return {
    totalPss: mb(node + postgres),
    nodePss: mb(node),
    serverPss: mb(server.pss),
    serverRss: mb(server.rss),
    postgresPss: mb(postgres),
    postgresProcesses: count,
    others,
  };
}

// ---------------------------------------------------------------- the server under test

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  base: string;
  dataDir: string;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const SERVER_FROM_SOURCES = process.env.BENCH_MEMORY_FROM_SOURCES === "1";
/**
 * Diagnosis opt-in: a directory where the run leaves the soak's PSS trace and the server's output with V8's
 * collections (--trace-gc), and prints V8's heap after the last full collection beside each phase.
 * BENCH_MEMORY_HEAP_SNAPSHOTS=1 also has the server write V8 heap snapshots there (after the load, halfway and at
 * the end of the soak): a snapshot pauses the server for seconds and leaves its RSS ~250 MB higher, so the PSS
 * figures of such a run measure the diagnosis too.
 */
const HEAP_DIR = process.env.BENCH_MEMORY_HEAP_DIR;
// Made if missing: the soak's trace is written there after a run of ten minutes or more.
if (HEAP_DIR) mkdirSync(HEAP_DIR, { recursive: true });
const HEAP_SNAPSHOTS = !!HEAP_DIR && process.env.BENCH_MEMORY_HEAP_SNAPSHOTS === "1";

async function startServer(databaseUrl?: string): Promise<Running> {
  if (!SERVER_FROM_SOURCES && !existsSync(path.join(ROOT, "packages/server/dist/bin/main.js")))
    throw new Error("memory: the compiled server is missing: run `npm run build -w @balcao/server` (or set BENCH_MEMORY_FROM_SOURCES=1)");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "balcao-bench-mem-"));
  const port = await freePort();
  // What `npm start` runs (npm run start -w @balcao/server → node … dist/bin/main.js, the
  // compiled server: `npm run build` first), minus npm itself; BENCH_MEMORY_FROM_SOURCES=1 runs src/main.ts
  // through tsx instead. The flags of packages/server's start script unless BENCH_MEMORY_NODE_FLAGS says otherwise.
  const nodeFlags = (process.env.BENCH_MEMORY_NODE_FLAGS ?? "--max-semi-space-size=4 --heap-growing-percent=20").split(" ").filter(Boolean);
  if (HEAP_DIR) nodeFlags.push("--trace-gc");
  if (HEAP_SNAPSHOTS) nodeFlags.push("--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${HEAP_DIR}`);
  const entry = SERVER_FROM_SOURCES ? ["--import", "tsx", "src/main.ts"] : ["dist/bin/main.js"];
  const child = spawn(process.execPath, [...nodeFlags, ...entry], {
    cwd: path.join(ROOT, "packages/server"),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
      SIMULATOR_ACK_DELAY_MS: "0",
      ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
      LOGIN_RATE_LIMIT: "1000",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`server did not start:\n${output}`);
    await sleep(200);
  }
  for (let i = 0; i < 20 && !/started in/.test(output); i++) await sleep(100);
  const started = /started in ([\d.]+) s/.exec(output)?.[1];
  if (started) console.log(`  (server started in ${started} s)`);
  return {
    child,
    base,
    dataDir,
    output: () => output,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await Promise.race([exited, sleep(30_000)]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The lowest sample of each whole minute. */
function minuteFloors(trace: { minute: number; totalPss: number }[]): { minute: number; totalPss: number }[] {
  const byMinute = new Map<number, number>();
  for (const x of trace) {
    const m = Math.floor(x.minute);
    byMinute.set(m, Math.min(byMinute.get(m) ?? Infinity, x.totalPss));
  }
  return [...byMinute].map(([minute, totalPss]) => ({ minute, totalPss }));
}

/** Least-squares slope of total PSS against time, in MB per minute. */
function slope(points: { minute: number; totalPss: number }[]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.minute, 0) / n;
  const my = points.reduce((a, p) => a + p.totalPss, 0) / n;
  const sxy = points.reduce((a, p) => a + (p.minute - mx) * (p.totalPss - my), 0);
  const sxx = points.reduce((a, p) => a + (p.minute - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/**
 * The per-minute floors of `value` over the soak's whole minutes (the last chunk can end a second or two past
 * SOAK_SECONDS, and a "floor" of those one or two samples is not comparable with the floor of a minute of 30), and
 * the trend of their last half; no trend with fewer than 3 floors there.
 */
function lastHalfTrend<T extends { minute: number }>(trace: T[], value: (x: T) => number | undefined): { floors: number[]; trend?: number } {
  const points = trace.flatMap((x) => {
    const v = value(x);
    return v === undefined || x.minute >= SOAK_SECONDS / 60 ? [] : [{ minute: x.minute, totalPss: v }];
  });
  const floors = minuteFloors(points);
  const lastHalf = floors.slice(Math.floor(floors.length / 2));
  return { floors: floors.map((x) => x.totalPss), trend: lastHalf.length >= 3 ? slope(lastHalf) : undefined };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const MARK_COMPACT = /Mark-Compact(?: \(reduce\))? [\d.]+ \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB/g;

/** V8's heap used and committed after the last full collection the server printed (--trace-gc), in MB. */
function lastMarkCompact(output: string): string {
  const all = [...output.matchAll(MARK_COMPACT)];
  const last = all.at(-1);
  return last ? `V8 heap after the last full collection ${last[2]} MB used, ${last[3]} MB committed (${all.length} full collections)` : "";
}

/** With BENCH_MEMORY_HEAP_SNAPSHOTS=1: the server writes a heap snapshot there; resolves once it is written. */
async function heapSnapshot(server: Running, label: string): Promise<void> {
  if (!HEAP_DIR || !HEAP_SNAPSHOTS) return;
  const before = new Set(readdirSync(HEAP_DIR));
  process.kill(server.child.pid!, "SIGUSR2");
  const until = Date.now() + 120_000;
  for (;;) {
    await sleep(500);
    const added = readdirSync(HEAP_DIR).filter((x) => !before.has(x) && x.endsWith(".heapsnapshot"));
    // The server answers again once the snapshot is written (it is taken on its main thread).
    if (
      added.length &&
      (await fetch(`${server.base}/api/health`)
        .then((r) => r.ok)
        .catch(() => false))
    ) {
      console.log(`${"".padEnd(36)} heap snapshot ${label}: ${path.join(HEAP_DIR, added[0]!)}`);
      return;
    }
    if (Date.now() > until) throw new Error(`memory: no heap snapshot in ${HEAP_DIR}`);
  }
}

async function api<T>(base: string, token: string | undefined, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/**
 * Scans a simulator connection's QR code. Under load the code can rotate between reading it and scanning it
 * (400 ERR_SIMULATOR_INVALID_CODE): then the current code is read again and scanned, a few times.
 */
async function scanSimulator(base: string, token: string, conn: { id: number; qrcode: string }): Promise<void> {
  let code = conn.qrcode;
  for (let attempt = 1; ; attempt++) {
    try {
      await api(base, token, "POST", `/simulator/${conn.id}/scan`, { code });
      return;
    } catch (err) {
      if (attempt >= 5 || !String(err).includes("ERR_SIMULATOR_INVALID_CODE")) throw err;
      code = (await api<{ qrcode: string }>(base, token, "GET", `/whatsapp/${conn.id}`)).qrcode;
    }
  }
}

interface Tenant {
  /** The current access token: renewed before it expires, so a soak may outlast it. */
  token: string;
  received: () => number;
  connectionId: number;
  close: () => void;
}

/** How often the bench user's access token is renewed: within its 15 min (ACCESS_TOKEN_TTL_SECONDS). */
const RENEW_EVERY_MS = Number(process.env.BENCH_MEMORY_RENEW_SECONDS ?? 600) * 1000;

async function prepare(base: string): Promise<Tenant> {
  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!login.ok) throw new Error(`POST /auth/login → ${login.status} ${await login.text()}`);
  let refreshCookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { token } = (await login.json()) as { token: string };
  // The platform company's plan allows 10 connections: the per-session step needs more.
  const plans = await api<Array<{ id: number; connections: number }>>(base, token, "GET", "/plans/all");
  for (const plan of plans) await api(base, token, "PUT", `/plans/${plan.id}`, { connections: Math.max(plan.connections, SESSIONS + 20) });
  const conn = await api<{ id: number; qrcode: string }>(base, token, "POST", "/whatsapp", { name: "Bench" });
  await scanSimulator(base, token, conn);

  // A socket closes when its token expires: the next one, with the renewed token, is up before the old one goes,
  // and messages are counted by id so the overlap counts each once.
  const seen = new Set<number>();
  const openSocket = async (accessToken: string): Promise<Socket> => {
    const socket = io(base, { path: "/socket.io", auth: { token: accessToken }, transports: ["websocket"], reconnection: false });
    socket.on("appMessage", (e: { action: string; message: { id: number; fromMe: boolean } }) => {
      if (e.action === "create" && !e.message.fromMe) seen.add(e.message.id);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("ready", () => resolve());
      socket.once("connect_error", reject);
    });
    return socket;
  };
  let socket = await openSocket(token);
  const tenant: Tenant = { token, received: () => seen.size, connectionId: conn.id, close: () => undefined };
  const renew = async () => {
    const res = await fetch(`${base}/api/auth/refresh_token`, { method: "POST", headers: { cookie: refreshCookie } });
    if (!res.ok) throw new Error(`POST /auth/refresh_token → ${res.status} ${await res.text()}`);
    refreshCookie =
      res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ") || refreshCookie;
    tenant.token = ((await res.json()) as { token: string }).token;
    const previous = socket;
    socket = await openSocket(tenant.token);
    previous.close();
  };
  const timer = setInterval(() => {
    renew().catch((err) => {
      console.error(`memory: renewing the bench user's token failed: ${String(err)}`);
      process.exitCode = 1;
    });
  }, RENEW_EVERY_MS);
  tenant.close = () => {
    clearInterval(timer);
    socket.close();
  };
  return tenant;
}

let seq = 0;
/** `count` customer messages at `rate` per second from PHONES phones, then waits until the socket got them. */
async function inbound(base: string, t: Tenant, count: number, rate: number): Promise<void> {
  const target = t.received() + count;
  const started = Date.now();
  const inflight: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    const n = seq++;
    const phone = `55119${String(81234501 + (n % PHONES))}`;
    inflight.push(api(base, t.token, "POST", `/simulator/${t.connectionId}/phones/${phone}/messages`, { type: "text", body: `mensagem ${n}` }));
    if (inflight.length > 200) await Promise.all(inflight.splice(0, 100));
  }
  await Promise.all(inflight);
  const until = Date.now() + 120_000;
  while (t.received() < target) {
    if (Date.now() > until) throw new Error(`only ${t.received() - (target - count)}/${count} messages reached the socket`);
    await sleep(100);
  }
}

async function sessions(base: string, t: Tenant, count: number): Promise<void> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const conn = await api<{ id: number; qrcode: string }>(base, t.token, "POST", "/whatsapp", { name: `Sessão ${i}` });
    await scanSimulator(base, t.token, conn);
    ids.push(conn.id);
  }
  const until = Date.now() + 60_000;
  for (;;) {
    const list = await api<Array<{ id: number; status: string }>>(base, t.token, "GET", "/whatsapp");
    const connected = list.filter((c) => ids.includes(c.id) && c.status === "CONNECTED").length;
    if (connected === count) return;
    if (Date.now() > until) throw new Error(`only ${connected}/${count} sessions connected`);
    await sleep(500);
  }
}

// ---------------------------------------------------------------- report

const f = (mb: number) => `${mb.toFixed(1).padStart(6)} MB`;

function line(label: string, s: Sample, embedded: boolean): void {
  const pg = embedded ? `   + postgres ${f(s.postgresPss)} (${s.postgresProcesses} processes)` : "";
  const others = s.others.length ? ` + ${s.others.join(", ")}` : "";
  console.log(`${label.padEnd(36)} total PSS ${f(s.totalPss)}   server process PSS ${f(s.serverPss)} (RSS ${f(s.serverRss)})${others}${pg}`);
}

/** Past pg's 10 s idle timeout (DATABASE_URL), so idle backends are gone as at rest; the embedded pool keeps its own. */
async function settle(rootPid: number): Promise<Sample> {
  await sleep(12_000);
  return sample(rootPid);
}

async function run(label: string, databaseUrl?: string): Promise<void> {
  const embedded = !databaseUrl;
  console.log(`\n${label}`);
  const server = await startServer(databaseUrl);
  try {
    const root = server.child.pid!;
    const rest = await settle(root);
    line("at rest", rest, embedded);
    const t = await prepare(server.base);
    const loadStarted = Date.now();
    await inbound(server.base, t, LOAD, RATE);
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    const loaded = await settle(root);
    line(`after ${LOAD} msgs sent at ${RATE} msg/s`, loaded, embedded);
    console.log(
      `${"".padEnd(36)} all ${LOAD} reached the attendant's socket in ${loadSeconds.toFixed(0)} s (${(LOAD / loadSeconds).toFixed(1)} msg/s)`,
    );
    if (HEAP_DIR) console.log(`${"".padEnd(36)} ${lastMarkCompact(server.output())}`);
    await heapSnapshot(server, "after the load");
    let peak = loaded;
    const soakStarted = Date.now();
    const beforeSoak = t.received();
    // Sampled every 2 s: the floor of each minute (after the collector ran) is what a leak would raise.
    const trace: { minute: number; totalPss: number; serverPss: number; serverRss: number; postgresPss: number; liveHeap?: number }[] = [];
    // With BENCH_MEMORY_HEAP_DIR: V8's heap used after the latest full collection, read from --trace-gc as it comes.
    let gcRead = server.output().length;
    let liveHeap: number | undefined;
    const sampler = setInterval(() => {
      const s = sample(root);
      if (HEAP_DIR) {
        const output = server.output();
        for (const m of output.slice(gcRead).matchAll(MARK_COMPACT)) liveHeap = Number(m[2]);
        gcRead = output.length;
      }
      trace.push({
        minute: (Date.now() - soakStarted) / 60_000,
        totalPss: s.totalPss,
        serverPss: s.serverPss,
        serverRss: s.serverRss,
        postgresPss: s.postgresPss,
        liveHeap,
      });
      if (s.totalPss > peak.totalPss) peak = s;
    }, 2_000);
    let halfway = false;
    while (Date.now() - soakStarted < SOAK_SECONDS * 1000) {
      if (!halfway && Date.now() - soakStarted >= (SOAK_SECONDS * 1000) / 2) {
        halfway = true;
        await heapSnapshot(server, "halfway through the soak");
      }
      const chunk = Math.min(RATE * 30, Math.ceil(((SOAK_SECONDS * 1000 - (Date.now() - soakStarted)) / 1000) * RATE));
      await inbound(server.base, t, chunk, RATE);
    }
    clearInterval(sampler);
    const soakSeconds = (Date.now() - soakStarted) / 1000;
    const soakMessages = t.received() - beforeSoak;
    const soaked = await settle(root);
    const pct = (from: number) => {
      const g = ((soaked.totalPss - from) / from) * 100;
      return `${g >= 0 ? "+" : ""}${g.toFixed(1)}%`;
    };
    line(`after a ${SOAK_SECONDS} s soak sent at ${RATE} msg/s`, soaked, embedded);
    if (HEAP_DIR) console.log(`${"".padEnd(36)} ${lastMarkCompact(server.output())}`);
    await heapSnapshot(server, "at the end of the soak");
    console.log(
      `${"".padEnd(36)} growth over the soak ${pct(loaded.totalPss)} (${pct(rest.totalPss)} of at rest; peak total ${f(peak.totalPss).trim()}; ${soakMessages} messages in ${soakSeconds.toFixed(0)} s = ${(soakMessages / soakSeconds).toFixed(1)} msg/s)`,
    );
    const total = lastHalfTrend(trace, (x) => x.totalPss);
    if (total.trend !== undefined)
      console.log(
        `${"".padEnd(36)} trend of the per-minute floor over the soak's last half: ${total.trend.toFixed(2)} MB/min (floors: ${total.floors.map((x) => x.toFixed(0)).join(" ")} MB)`,
      );
    // Which part rises: the server process, or the PostgreSQL processes it started (embedded default only).
    const parts: [string, (x: (typeof trace)[number]) => number][] = [["server process", (x) => x.serverPss]];
    if (embedded) parts.push(["its PostgreSQL", (x) => x.postgresPss]);
    for (const [part, pss] of parts) {
      const { floors, trend } = lastHalfTrend(trace, pss);
      if (trend !== undefined)
        console.log(`${"".padEnd(36)} of which ${part}: ${trend.toFixed(2)} MB/min (floors: ${floors.map((x) => x.toFixed(1)).join(" ")} MB)`);
    }
    // The simulator (in the server process) keeps each phone's last messages: a bounded buffer that is still filling
    // while fewer than PHONES × that many customer messages were sent, so part of a trend before then is the buffer.
    const full = (PHONES * SIMULATOR_MESSAGES_PER_PHONE - LOAD) / RATE / 60;
    console.log(
      `${"".padEnd(36)} the simulator's buffers (last ${SIMULATOR_MESSAGES_PER_PHONE} messages of each of ${PHONES} phones) ${full * 60 < SOAK_SECONDS ? `were full from minute ${full.toFixed(1)} of the soak` : "were still filling at its end"}`,
    );
    if (HEAP_DIR) {
      const live = lastHalfTrend(trace, (x) => x.liveHeap);
      if (live.trend !== undefined)
        console.log(
          `${"".padEnd(36)} V8 heap used after full collections, per-minute floor: trend ${live.trend.toFixed(2)} MB/min over the last half (floors: ${live.floors.map((x) => x.toFixed(1)).join(" ")} MB)`,
        );
    }
    if (SESSIONS > 0) {
      const before = sample(root);
      await sessions(server.base, t, SESSIONS);
      const after = await settle(root);
      line(`with ${SESSIONS} more simulator sessions`, after, embedded);
      console.log(`${"".padEnd(36)} ${((after.totalPss - before.totalPss) / SESSIONS).toFixed(2)} MB per WhatsApp session (simulator provider)`);
    }
    t.close();
    if (HEAP_DIR) {
      // For offline reading: the PSS trace of the soak and the server's output with its --trace-gc lines.
      const stem = path.join(HEAP_DIR, embedded ? "embedded" : "external");
      writeFileSync(`${stem}-trace.json`, JSON.stringify({ soakStartedAt: soakStarted, trace }));
      writeFileSync(`${stem}-server-output.log`, server.output());
    }
  } finally {
    await server.stop();
  }
}

async function baseline(): Promise<void> {
  console.log("baseline (same run)");
  const node = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
  await sleep(1_000);
  console.log(`${"bare node process, idle".padEnd(36)} PSS ${f(rollup(node.pid!).pss / 1024)}`);
  node.kill();
  const dir = mkdtempSync(path.join(os.tmpdir(), "balcao-bench-pg-"));
  const server = await startEmbeddedPostgres({ dir: path.join(dir, "postgres"), log: () => undefined });
  await sleep(3_000);
  const pids = processes().filter((p) => isPostgres(p) && p.args.includes(dir));
  const postmaster = pids.find((p) => !p.args.startsWith("postgres:"));
  const all = postmaster ? tree(postmaster.pid) : [];
  const kb = all.reduce((n, p) => n + rollup(p.pid).pss, 0);
  console.log(`${"bare embedded PostgreSQL, idle".padEnd(36)} PSS ${f(kb / 1024)} (${all.length} processes)`);
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- per session, in process

/**
 * Stands in for Baileys' socket (WhatsApp's servers are out of reach here): pairs at once. What it measures is
 * our side of a session — the provider's state, listeners, credentials and the manager's bookkeeping — not the
 * memory a live Baileys socket holds for its WebSocket, Signal sessions and caches.
 */
class ScriptedSocket {
  static readonly all: ScriptedSocket[] = [];
  readonly ev = new EventEmitter();
  user?: { id: string };
  readonly signalRepository = { lidMapping: { getPNForLID: async () => null } };
  constructor(private readonly config: { auth: { creds: { me?: { id: string } } } }) {
    ScriptedSocket.all.push(this);
    setImmediate(() => {
      const id = `55119${String(80_000_000 + ++scriptedSeq)}:1@s.whatsapp.net`;
      this.config.auth.creds.me = { id };
      this.ev.emit("creds.update", { me: { id } });
      this.user = { id };
      this.ev.emit("connection.update", { connection: "open" });
    });
  }
  async end() {}
  async logout() {}
}
let scriptedSeq = 0;

/** Heap and RSS of this process after a full collection, in MB. */
function settledHeap(gc: () => void): { heap: number; rss: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: (m.heapUsed + m.external) / 1048576, rss: m.rss / 1048576 };
}

/** MB per session for 100 (BENCH_MEMORY_SESSIONS) simulator and scripted-Baileys connections, in this process. */
async function perSessionInProcess(): Promise<void> {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  const { app, ctx, close } = await benchApp();
  try {
    ctx.channels.registerProvider(
      new BaileysProvider({
        db: ctx.database.db,
        logger: pino({ level: "silent" }),
        reconnectBaseMs: 1_000,
        reconnectMaxMs: 10_000,
        ffmpegPath: "/nonexistent/ffmpeg",
        overrides: { makeWASocket: ((config: never) => new ScriptedSocket(config)) as unknown as BaileysLib["makeWASocket"] },
      }),
    );
    const db = ctx.database.db;
    const [plan] = await db.insert(plans).values({ name: "Sessions", users: 10, connections: 0, queues: 10, value: 1 }).returning();
    const [company] = await db.insert(companies).values({ name: "Sessions Co", planId: plan!.id, dueDate: "2099-12-31" }).returning();
    await db.insert(users).values({
      companyId: company!.id,
      name: "Admin",
      email: "sessions@bench.dev",
      passwordHash: await ctx.passwords.hash("bench-pass"),
      profile: "admin",
    });
    const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "sessions@bench.dev", password: "bench-pass" } });
    const headers = { authorization: `Bearer ${login.json().token as string}` };
    console.log(`\nper WhatsApp session, in one process (${SESSIONS} connections each; heap = V8 heap used + external after a full collection)`);
    for (const channel of ["simulator", "baileys"] as const) {
      const before = settledHeap(gc);
      const ids: number[] = [];
      for (let i = 0; i < SESSIONS; i++) {
        const res = await app.inject({ method: "POST", url: "/api/whatsapp", headers, payload: { name: `${channel} ${i}`, channel } });
        if (res.statusCode !== 201) throw new Error(`POST /whatsapp → ${res.statusCode} ${res.body}`);
        const conn = res.json() as { id: number; qrcode: string };
        if (channel === "simulator")
          await app.inject({ method: "POST", url: `/api/simulator/${conn.id}/scan`, headers, payload: { code: conn.qrcode } });
        ids.push(conn.id);
      }
      const until = Date.now() + 60_000;
      for (;;) {
        const rows = await db
          .select({ id: connections.id, status: connections.status })
          .from(connections)
          .where(eq(connections.companyId, company!.id));
        const connected = rows.filter((r) => ids.includes(r.id) && r.status === "CONNECTED").length;
        if (connected === SESSIONS) break;
        if (Date.now() > until) throw new Error(`${channel}: only ${connected}/${SESSIONS} sessions connected`);
        await sleep(200);
      }
      await sleep(1_000);
      const after = settledHeap(gc);
      const label = channel === "simulator" ? "simulator provider" : "Baileys provider, scripted socket";
      console.log(
        `${label.padEnd(36)} heap ${((after.heap - before.heap) / SESSIONS).toFixed(3)} MB per session   RSS ${((after.rss - before.rss) / SESSIONS).toFixed(3)} MB per session   (goal ≤ 10 MB)`,
      );
      if (SESSION_SOAK_SECONDS > 0) {
        // The sessions stay up while customers write to them round-robin; then the process is measured again.
        const sockets = ScriptedSocket.all.slice(-SESSIONS);
        const started = Date.now();
        let sent = 0;
        while (Date.now() - started < SESSION_SOAK_SECONDS * 1000) {
          const due = started + (sent * 1000) / SESSION_SOAK_RATE;
          if (due > Date.now()) await sleep(due - Date.now());
          const i = sent % SESSIONS;
          const phone = `55119${String(81_300_001 + (sent % 500))}`;
          if (channel === "simulator") {
            const res = await app.inject({
              method: "POST",
              url: `/api/simulator/${ids[i]}/phones/${phone}/messages`,
              headers,
              payload: { type: "text", body: `mensagem ${sent}` },
            });
            if (res.statusCode >= 300) throw new Error(`simulator message → ${res.statusCode} ${res.body}`);
          } else {
            sockets[i]!.ev.emit("messages.upsert", {
              type: "notify",
              messages: [
                {
                  key: { remoteJid: `${phone}@s.whatsapp.net`, fromMe: false, id: `SOAK-${channel}-${sent}` },
                  message: { conversation: `mensagem ${sent}` },
                  messageTimestamp: Math.floor(Date.now() / 1000),
                },
              ],
            });
          }
          sent++;
        }
        await ctx.events.drain();
        await sleep(2_000);
        const end = settledHeap(gc);
        const growth = (x: number, y: number) => `${(((y - x) / x) * 100).toFixed(1)}%`;
        console.log(
          `${"".padEnd(36)} after ${SESSION_SOAK_SECONDS} s with ${sent} customer messages: heap ${end.heap.toFixed(1)} MB (${growth(after.heap, end.heap)}), RSS ${end.rss.toFixed(1)} MB (${growth(after.rss, end.rss)}) since the sessions were up   (goal ≤ 10% growth)`,
        );
      }
    }
  } finally {
    await close();
  }
}

export async function memoryBench(): Promise<void> {
  if (!existsSync("/proc/self/smaps_rollup")) {
    console.log("memory: needs Linux (/proc/<pid>/smaps_rollup); skipped");
    return;
  }
  await baseline();
  const only = process.env.BENCH_MEMORY_ONLY;
  if (only === "sessions") return perSessionInProcess();
  // BENCH_MEMORY_ONLY=embedded|external runs one database mode, so the two long soaks can run side by side.
  if (only !== "external") await run("embedded default (npm start: server + the PostgreSQL it starts)");
  if (only === "embedded") return;
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    console.log("\nexternal PostgreSQL: set BENCH_DATABASE_URL=postgres://…/<any database> to measure it too");
    return;
  }
  // A scratch database on that server, so the run starts empty and leaves nothing behind.
  const name = `balcao_bench_mem_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const u = new URL(url);
    u.pathname = `/${name}`;
    await run("external PostgreSQL (DATABASE_URL: the Node processes only)", u.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  if (SESSIONS > 0) await perSessionInProcess();
}
