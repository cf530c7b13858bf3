/**
 * The open-loop load generator of `bench/inbound`: customers writing at a fixed offered rate through the
 * simulator's HTTP API, and the company admin's socket that receives each `appMessage`. It only speaks HTTP and
 * Socket.IO to the server, so it runs either on the server's own event loop ("inline") or on a worker thread
 * ("worker"). In production the customers are WhatsApp's servers and the admin a browser elsewhere: a generator
 * sharing the server's event loop adds its own work (fetch, socket.io-client parsing, the schedule's timers) to
 * every latency it measures, and the worker removes that from the server's loop while keeping the same clock.
 */
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { io } from "socket.io-client";

export interface OpenLoopParams {
  base: string;
  token: string;
  connectionId: number;
  rate: number;
  durationS: number;
  phones: number;
  graceS: number;
  prefix: string;
}

export interface OpenResult {
  rate: number;
  sent: number;
  received: number;
  lost: number;
  failed: number;
  latencies: number[];
  backlogAtEnd: number;
  backlogSeries: number[];
  lagMax: number;
  drainSeconds: number;
}

export type Generator = "inline" | "worker";

const ms = (from: bigint, to: bigint) => Number(to - from) / 1e6;

/** One open-loop run: `rate` msg/s for `durationS` seconds from `phones` phones. */
export async function openLoopLoad(p: OpenLoopParams): Promise<OpenResult> {
  const socket = io(p.base, { path: "/socket.io", auth: { token: p.token }, transports: ["websocket"], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("ready", () => resolve());
    socket.once("connect_error", reject);
  });
  const headers = { authorization: `Bearer ${p.token}`, "content-type": "application/json" };
  const total = Math.round(p.rate * p.durationS);
  const sentAt = new Map<string, bigint>();
  const latencies: number[] = [];
  let received = 0;
  let failed = 0;
  let allIn!: () => void;
  const allReceived = new Promise<void>((resolve) => (allIn = resolve));
  socket.on("appMessage", (event: { action: string; message: { body: string; fromMe: boolean } }) => {
    if (event.action !== "create" || event.message.fromMe) return;
    const at = process.hrtime.bigint();
    const started = sentAt.get(event.message.body);
    if (started === undefined) return;
    sentAt.delete(event.message.body);
    latencies.push(ms(started, at));
    if (++received === total) allIn();
  });
  let sent = 0;
  let inFlight = 0;
  let lagMax = 0;
  const backlogSeries: number[] = [];
  const started = process.hrtime.bigint();
  const sampler = setInterval(() => backlogSeries.push(sent - received), 1000);
  const send = async (phone: string, body: string) => {
    const res = await fetch(`${p.base}/api/simulator/${p.connectionId}/phones/${phone}/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "text", body }),
    });
    if (res.status !== 201) throw new Error(`simulator answered ${res.status}: ${await res.text()}`);
  };
  // The schedule: message i is due at i/rate s; whatever is due is sent at once, never waiting for answers.
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = ms(started, process.hrtime.bigint()) / 1000;
      const due = Math.min(total, Math.floor(elapsed * p.rate) + 1);
      while (sent < due) {
        const i = sent++;
        lagMax = Math.max(lagMax, elapsed * 1000 - (i / p.rate) * 1000);
        const body = `${p.prefix}${i}`;
        sentAt.set(body, process.hrtime.bigint());
        inFlight++;
        send(`55119${String(61234501 + (i % p.phones))}`, body)
          .catch(() => {
            failed++;
          })
          .finally(() => inFlight--);
      }
      if (sent >= total) resolve();
      else setTimeout(tick, Math.max(1, Math.min(20, 1000 / p.rate / 2)));
    };
    tick();
  });
  const backlogAtEnd = sent - received;
  const sendEnd = process.hrtime.bigint();
  await Promise.race([allReceived, new Promise((resolve) => setTimeout(resolve, p.graceS * 1000))]);
  clearInterval(sampler);
  const drainSeconds = ms(sendEnd, process.hrtime.bigint()) / 1000;
  const receivedInGrace = received;
  // The next run starts on a quiet server: wait (unmeasured, up to a minute) for the requests still in flight.
  for (let waited = 0; inFlight > 0 && waited < 60_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  socket.close();
  return {
    rate: p.rate,
    sent,
    received: receivedInGrace,
    lost: total - receivedInGrace,
    failed,
    latencies,
    backlogAtEnd,
    backlogSeries,
    lagMax,
    drainSeconds,
  };
}

/** Runs the generator on the caller's event loop or on a worker thread of this process. */
export function runOpenLoop(p: OpenLoopParams, generator: Generator): Promise<OpenResult> {
  if (generator === "inline") return openLoopLoad(p);
  return new Promise((resolve, reject) => {
    // tsx's loader hooks are per thread (and Node 20 ignores --import in a worker's execArgv): the worker
    // registers its own before it loads this TypeScript file.
    const boot = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: { inboundOpenLoop: p } });
    worker.once("message", (result: OpenResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once("error", reject);
  });
}

if (!isMainThread && (workerData as { inboundOpenLoop?: OpenLoopParams } | null)?.inboundOpenLoop) {
  const result = await openLoopLoad((workerData as { inboundOpenLoop: OpenLoopParams }).inboundOpenLoop);
  parentPort!.postMessage(result);
}
