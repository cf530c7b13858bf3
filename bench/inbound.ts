/**
 * Issue 4 benchmark: inbound customer messages per second through the simulator's HTTP API until the
 * attendant's socket receives `appMessage`, with p50/p99 latency; baseline = the same number of messages
 * fed straight into the inbound pipeline (no HTTP, no provider, no socket) in the same run.
 */
import { io } from "socket.io-client";
import { companies, plans, users } from "../packages/server/src/db/schema";
import { pipelines } from "../packages/server/src/modules/messages/module";
import { benchApp, percentile } from "./lib";

const MESSAGES = Number(process.env.BENCH_INBOUND ?? 2000);
const PHONES = Number(process.env.BENCH_PHONES ?? 50);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

export async function inboundBench(): Promise<void> {
  const { app, ctx, close } = await benchApp();
  const db = ctx.database.db;
  const [plan] = await db.insert(plans).values({ name: "Bench", users: 10, connections: 10, queues: 10, value: 1 }).returning();
  const [company] = await db.insert(companies).values({ name: "Inbound Co", planId: plan!.id, dueDate: "2099-12-31" }).returning();
  await db.insert(users).values({
    companyId: company!.id,
    name: "Admin",
    email: "inbound@bench.dev",
    passwordHash: await ctx.passwords.hash("bench-pass"),
    profile: "admin",
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  const token = (await app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "inbound@bench.dev", password: "bench-pass" } })).json()
    .token as string;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const conn = (await app.inject({ method: "POST", url: "/api/whatsapp", headers, payload: { name: "Simulador" } })).json();
  await app.inject({ method: "POST", url: `/api/simulator/${conn.id}/scan`, headers, payload: { code: conn.qrcode } });

  const socket = io(base, { path: "/socket.io", auth: { token }, transports: ["websocket"], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", reject);
  });
  const sentAt = new Map<string, bigint>();
  const latencies: number[] = [];
  let received = 0;
  let done!: () => void;
  const allReceived = new Promise<void>((resolve) => (done = resolve));
  socket.on("appMessage", (event: { action: string; message: { body: string; fromMe: boolean } }) => {
    if (event.action !== "create" || event.message.fromMe) return;
    const started = sentAt.get(event.message.body);
    if (started === undefined) return;
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (++received === MESSAGES) done();
  });

  // Real HTTP over loopback, as a load generator would send it.
  const send = async (i: number) => {
    const body = `mensagem ${i}`;
    const phone = `55119${String(81234501 + (i % PHONES))}`;
    sentAt.set(body, process.hrtime.bigint());
    const res = await fetch(`${base}/api/simulator/${conn.id}/phones/${phone}/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "text", body }),
    });
    if (res.status !== 201) throw new Error(`simulator answered ${res.status}: ${await res.text()}`);
  };
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < MESSAGES) await send(next++);
    }),
  );
  await Promise.race([allReceived, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${received}/${MESSAGES} arrived`)), 120_000))]);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  socket.close();

  // Baseline: the pipeline alone, same volume, fresh phones.
  const pipeline = pipelines.get(ctx)!;
  const baseStarted = process.hrtime.bigint();
  for (let i = 0; i < MESSAGES; i++) {
    await pipeline.receive(
      { companyId: company!.id, connectionId: conn.id },
      {
        providerMessageId: `BASE-${i}`,
        chat: { id: `55119${String(71234501 + (i % PHONES))}`, kind: "phone" },
        fromMe: false,
        kind: "chat",
        body: `base ${i}`,
        timestamp: new Date(),
      },
    );
  }
  const baseSeconds = Number(process.hrtime.bigint() - baseStarted) / 1e9;

  console.log(`${MESSAGES} messages from ${PHONES} phones, ${CONCURRENCY} in flight (${ctx.database.kind})`);
  console.log(`pipeline alone (baseline)                        ${(MESSAGES / baseSeconds).toFixed(0).padStart(6)} msg/s`);
  console.log(
    `simulator HTTP → pipeline → socket appMessage     ${(MESSAGES / seconds).toFixed(0).padStart(6)} msg/s   ×${(baseSeconds / seconds).toFixed(2)} of baseline` +
      `   latency p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
  await close();
}
