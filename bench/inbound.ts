/**
 * Issue 4 benchmark: inbound customer messages per second through the simulator's HTTP API until the
 * attendant's socket receives `appMessage`, with p50/p99 latency; baseline = the same number of messages
 * fed straight into the inbound pipeline (no HTTP, no provider, no socket) in the same run.
 *
 * Issue 20 adds the open loop: customers write at a fixed offered rate (`BENCH_RATES`, msg/s, for
 * `BENCH_DURATION` seconds each, from `BENCH_OPEN_PHONES` phones) on a schedule that never waits for an answer;
 * latency is from each send until the company admin's socket receives `appMessage` for it. Each rate runs on a
 * new company (default settings) so the rates do not share tickets. Reported: p50/p99/max latency, the backlog
 * (sent − received) each second and at the end of sending, and the messages lost (not received within
 * `BENCH_GRACE` seconds after the last send). The closed-loop figures of the same run are the baseline.
 * Also counted: the statements the pipeline alone sends per message (what `InboundPipeline.receive` awaits,
 * BEGIN/COMMIT included; the outbox's delivery rounds it starts are not its own), and every statement of the
 * process per message over the closed loop (HTTP, pipeline, outbox delivery, bot).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { io, type Socket } from "socket.io-client";
import type { AppContext } from "../packages/server/src/context";
import type { App } from "../packages/server/src/app";
import { companies, plans, users } from "../packages/server/src/db/schema";
import { pipelines } from "../packages/server/src/modules/messages/module";
import { type Generator, runOpenLoop } from "./inbound-load";
import { benchApp, descendantsCpuMs, percentile } from "./lib";

const MESSAGES = Number(process.env.BENCH_INBOUND ?? 2000);
const PHONES = Number(process.env.BENCH_PHONES ?? 50);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
/** Open loop: offered rates in msg/s ("" or "0" = closed loop only). */
const RATES = (process.env.BENCH_RATES ?? (process.env.BENCH_DATABASE_URL ? "80,150,300" : "20,40,80"))
  .split(",")
  .map(Number)
  .filter((r) => r > 0);
/**
 * Where the open loop's load generator runs: "worker" (a worker thread: the server's event loop carries only
 * the server, as in production) and/or "inline" (on the server's own event loop, as before issue 20's
 * measurements moved it); "inline,worker" runs each rate both ways, so one run shows what the generator costs.
 */
const GENERATORS = (process.env.BENCH_GENERATOR ?? "worker").split(",").filter((g): g is Generator => g === "inline" || g === "worker");
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const OPEN_PHONES = Number(process.env.BENCH_OPEN_PHONES ?? 200);
const GRACE_S = Number(process.env.BENCH_GRACE ?? 15);
/** Prints the statements the whole process sent over the closed loop, the most frequent first (0 = off). */
const STATEMENTS_TOP = Number(process.env.BENCH_STATEMENTS_TOP ?? 0);

interface Tenant {
  companyId: number;
  connectionId: number;
  headers: Record<string, string>;
  token: string;
}

let tenants = 0;

/** A new company with default settings, its admin signed in and a scanned simulator. */
async function newTenant(app: App, ctx: AppContext): Promise<Tenant> {
  const db = ctx.database.db;
  const n = ++tenants;
  const [plan] = await db
    .insert(plans)
    .values({ name: `Bench ${n}`, users: 10, connections: 10, queues: 10, value: 1 })
    .returning();
  const [company] = await db
    .insert(companies)
    .values({ name: `Inbound Co ${n}`, planId: plan!.id, dueDate: "2099-12-31" })
    .returning();
  const email = `inbound${n}@bench.dev`;
  await db.insert(users).values({
    companyId: company!.id,
    name: "Admin",
    email,
    passwordHash: await ctx.passwords.hash("bench-pass"),
    profile: "admin",
  });
  const token = (await app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password: "bench-pass" } })).json().token as string;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const conn = (await app.inject({ method: "POST", url: "/api/whatsapp", headers, payload: { name: "Simulador" } })).json();
  await app.inject({ method: "POST", url: `/api/simulator/${conn.id}/scan`, headers, payload: { code: conn.qrcode } });
  return { companyId: company!.id, connectionId: conn.id as number, headers, token };
}

/** The admin's socket, ready. */
async function adminSocket(base: string, token: string): Promise<Socket> {
  const socket = io(base, { path: "/socket.io", auth: { token }, transports: ["websocket"], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** Real HTTP over loopback, as a load generator would send it. */
async function customerSend(base: string, t: Tenant, phone: string, body: string): Promise<void> {
  const res = await fetch(`${base}/api/simulator/${t.connectionId}/phones/${phone}/messages`, {
    method: "POST",
    headers: t.headers,
    body: JSON.stringify({ type: "text", body }),
  });
  if (res.status !== 201) throw new Error(`simulator answered ${res.status}: ${await res.text()}`);
}

/** Calls `fn` with the arrival time of each customer message (by body) the admin's socket receives. */
function onCustomerMessage(socket: Socket, fn: (body: string, at: bigint) => void): void {
  socket.on("appMessage", (event: { action: string; message: { body: string; fromMe: boolean } }) => {
    if (event.action !== "create" || event.message.fromMe) return;
    fn(event.message.body, process.hrtime.bigint());
  });
}

const ms = (from: bigint, to: bigint) => Number(to - from) / 1e6;

/** Statements sent by every pg client of this process, and those sent inside `counted.run(…)`. */
const counted = new AsyncLocalStorage<true>();
const statements = { all: 0, inside: 0, texts: null as Map<string, number> | null };
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements.all++;
  if (statements.texts) {
    const first = args[0] as string | { text?: string };
    const text = (typeof first === "string" ? first : (first?.text ?? "?")).replace(/\s+/g, " ").slice(0, 160);
    statements.texts.set(text, (statements.texts.get(text) ?? 0) + 1);
  }
  if (counted.getStore()) statements.inside++;
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof clientQuery;

interface OpenSummary {
  rate: number;
  generator: Generator;
  sent: number;
  received: number;
  lost: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
  /** Over the received messages only (differs from p99/max when some were lost). */
  p99Received: number;
  maxReceived: number;
  backlogAtEnd: number;
  backlogMax: number;
  backlogSeries: number[];
  lagMax: number;
  drainSeconds: number;
  /** Share of the time the server's event loop was busy while customers were writing. */
  serverLoopBusy: number;
}

/** One open-loop run: `rate` msg/s for DURATION_S seconds from OPEN_PHONES phones, on a new company. */
async function openLoop(app: App, ctx: AppContext, base: string, rate: number, generator: Generator): Promise<OpenSummary> {
  const t = await newTenant(app, ctx);
  const loopBefore = performance.eventLoopUtilization();
  const r = await runOpenLoop(
    { base, token: t.token, connectionId: t.connectionId, rate, durationS: DURATION_S, phones: OPEN_PHONES, graceS: GRACE_S, prefix: `open${rate}-` },
    generator,
  );
  const serverLoopBusy = performance.eventLoopUtilization(loopBefore).utilization;
  const { latencies, lost } = r;
  const total = r.sent;
  return {
    ...r,
    generator,
    serverLoopBusy,
    p50: latencies.length ? percentile(latencies, 50) : NaN,
    // A lost message counts as infinitely late: p99 and max then say so.
    p99: lost > 0 && lost >= total / 100 ? Infinity : percentile(latencies, 99),
    max: lost > 0 ? Infinity : Math.max(...latencies),
    p99Received: latencies.length ? percentile(latencies, 99) : NaN,
    maxReceived: latencies.length ? Math.max(...latencies) : NaN,
    backlogMax: Math.max(r.backlogAtEnd, ...r.backlogSeries),
  };
}

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "∞");

export async function inboundBench(): Promise<void> {
  const { app, ctx, close } = await benchApp();
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  // Closed loop (the baseline of the open loop): CONCURRENCY senders, each waiting for its answer.
  const closed = await newTenant(app, ctx);
  const closedSocket = await adminSocket(base, closed.token);
  const sentAt = new Map<string, bigint>();
  const latencies: number[] = [];
  let received = 0;
  let done!: () => void;
  const allReceived = new Promise<void>((resolve) => (done = resolve));
  onCustomerMessage(closedSocket, (body, at) => {
    const started = sentAt.get(body);
    if (started === undefined) return;
    latencies.push(ms(started, at));
    if (++received === MESSAGES) done();
  });
  const send = async (i: number) => {
    const body = `mensagem ${i}`;
    sentAt.set(body, process.hrtime.bigint());
    await customerSend(base, closed, `55119${String(81234501 + (i % PHONES))}`, body);
  };
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const dbCpuBefore = descendantsCpuMs();
  const allBefore = statements.all;
  if (STATEMENTS_TOP > 0) statements.texts = new Map();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < MESSAGES) await send(next++);
    }),
  );
  await Promise.race([allReceived, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${received}/${MESSAGES} arrived`)), 120_000))]);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const nodeCpuPerMessage = (cpu.user + cpu.system) / 1000 / MESSAGES;
  const dbCpuPerMessage = (descendantsCpuMs() - dbCpuBefore) / MESSAGES;
  const allPerMessage = (statements.all - allBefore) / MESSAGES;
  const texts = statements.texts;
  statements.texts = null;
  closedSocket.close();
  const closedP99 = percentile(latencies, 99);

  // Baseline: the pipeline alone, same volume, fresh phones.
  const pipeline = pipelines.get(ctx)!;
  // Delivery rounds the pipeline kicks are the outbox's, not the pipeline's: they start outside the count.
  const kick = ctx.events.kick.bind(ctx.events);
  ctx.events.kick = (types) => counted.exit(() => kick(types));
  const insideBefore = statements.inside;
  const baseStarted = process.hrtime.bigint();
  for (let i = 0; i < MESSAGES; i++) {
    await counted.run(true, () =>
      pipeline.receive(
        { companyId: closed.companyId, connectionId: closed.connectionId },
        {
          providerMessageId: `BASE-${i}`,
          chat: { id: `55119${String(71234501 + (i % PHONES))}`, kind: "phone" },
          fromMe: false,
          kind: "chat",
          body: `base ${i}`,
          timestamp: new Date(),
        },
      ),
    );
  }
  const baseSeconds = Number(process.hrtime.bigint() - baseStarted) / 1e9;
  ctx.events.kick = kick;
  const pipelinePerMessage = (statements.inside - insideBefore) / MESSAGES;

  console.log(`${MESSAGES} messages from ${PHONES} phones, ${CONCURRENCY} in flight (${ctx.database.kind})`);
  console.log(`pipeline alone (baseline)                        ${(MESSAGES / baseSeconds).toFixed(0).padStart(6)} msg/s`);
  console.log(
    `simulator HTTP → pipeline → socket appMessage     ${(MESSAGES / seconds).toFixed(0).padStart(6)} msg/s   ×${(baseSeconds / seconds).toFixed(2)} of baseline` +
      `   latency p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${closedP99.toFixed(1)} ms`,
  );
  console.log(
    `statements per message: pipeline alone ${pipelinePerMessage.toFixed(1)} (${PHONES} phones: mostly a known contact's open ticket); ` +
      `whole process over the closed loop ${allPerMessage.toFixed(1)} (HTTP, pipeline, outbox delivery, bot)`,
  );
  console.log(
    `CPU per message over the closed loop: this process (server and load generator) ${nodeCpuPerMessage.toFixed(2)} ms` +
      (ctx.database.kind === "embedded"
        ? `, the embedded PostgreSQL's processes ${dbCpuPerMessage.toFixed(2)} ms`
        : " (the external PostgreSQL's not counted)"),
  );
  if (texts)
    for (const [text, n] of [...texts].sort((a, b) => b[1] - a[1]).slice(0, STATEMENTS_TOP))
      console.log(`  ${(n / MESSAGES).toFixed(2).padStart(6)} per message  ${text}`);

  if (RATES.length > 0)
    console.log(
      `open loop: ${DURATION_S} s per rate, ${OPEN_PHONES} phones, a new company per rate, grace ${GRACE_S} s, load generator ${GENERATORS.join(" and ")} (baseline: the closed loop above)`,
    );
  for (const rate of RATES)
    for (const generator of GENERATORS) {
      const r = await openLoop(app, ctx, base, rate, generator);
      console.log(
        `open loop ${String(rate).padStart(4)} msg/s (${r.generator.padEnd(6)})  latency p50 ${f1(r.p50).padStart(7)} ms  p99 ${f1(r.p99).padStart(8)} ms  max ${f1(r.max).padStart(8)} ms` +
          `   ×${Number.isFinite(r.p99) ? (r.p99 / closedP99).toFixed(2) : "∞"} of closed-loop p99   offered ×${(rate / (MESSAGES / seconds)).toFixed(2)} of closed-loop msg/s`,
      );
      console.log(
        `                     sent ${r.sent}, received ${r.received}, lost ${r.lost}${r.failed ? ` (${r.failed} sends refused)` : ""}; ` +
          `backlog at end of sending ${r.backlogAtEnd}, max ${r.backlogMax}, drained in ${r.drainSeconds.toFixed(1)} s; sender lag max ${r.lagMax.toFixed(0)} ms` +
          (r.lost > 0 ? `; received only: p99 ${f1(r.p99Received)} ms, max ${f1(r.maxReceived)} ms` : ""),
      );
      console.log(`                     backlog each second: ${r.backlogSeries.join(" ")}`);
      console.log(`                     server event loop busy ${(r.serverLoopBusy * 100).toFixed(0)}% of the run`);
    }
  await close();
}
