import type { IncomingMessage, ServerResponse } from "node:http";
import type { App } from "./app";
import { buildApp } from "./app";
import type { Config } from "./config/env";
import { createContext, type AppContext } from "./context";
import { openDatabase } from "./db/client";
import { seed } from "./seed";
import { listenBackend } from "./http/backend";

export interface Started {
  app: App;
  ctx: AppContext;
  url: string;
  /** The backend listener (spec §7 root paths), when BACKEND_PORT is set. */
  backendUrl?: string;
  createdAdmin: boolean;
  /** The demo company's admin login, when the seed created it on this start (embedded, non-production). */
  demo?: { email: string; password: string };
  stop(): Promise<void>;
}

/** Opens the database, migrates, seeds and listens: what `npm start` and the e2e server run. */
export async function startServer(config: Config): Promise<Started> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
  } catch (err) {
    // Refused (a schema from a newer version) or failed: stop the embedded server cleanly before reporting.
    await database.close().catch(() => undefined);
    throw err;
  }
  const ctx = createContext(config, database);
  const { createdAdmin, demo } = await seed(ctx);
  const app = await buildApp(ctx);
  const drain = trackRequests(app);
  await app.listen({ port: config.port, host: config.host });
  let backendUrl: string | undefined;
  if (app.backendServer && config.backend) {
    const port = await listenBackend(app.backendServer, config.backend.port, config.backend.host);
    backendUrl = `http://${config.backend.host === "0.0.0.0" || config.backend.host === "::" ? "localhost" : config.backend.host}:${port}`;
  }
  // WhatsApp sessions: claim this process's share of the connections (one owner each, by lease).
  if (config.channels.autostart) await ctx.channels.start();
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return {
    app,
    ctx,
    url: config.publicUrl ?? `http://localhost:${port}`,
    backendUrl,
    createdAdmin,
    demo,
    // Graceful shutdown (SIGTERM): in-flight work finishes or is handed back, the leases are released so another
    // process takes the connections over at once, and the database (embedded or not) is closed cleanly.
    stop: async () => {
      // 1. No new connections; requests already running finish (sends reach WhatsApp through sessions still
      //    open) and their answers close kept-alive connections, so a load balancer sends the next elsewhere.
      await drain(SHUTDOWN_DRAIN_MS);
      // 2. Running jobs finish (pg-boss graceful stop); queued ones stay in the database for another process.
      await ctx.jobs.stop();
      // 3. Sessions closed (pairing kept) and leases deleted, not left to expire.
      await ctx.channels.stop();
      await app.close();
      await database.close();
    },
  };
}

/** How long a stopping server waits for its running HTTP requests before closing anyway. */
const SHUTDOWN_DRAIN_MS = 15_000;

/**
 * Counts the HTTP requests in progress (Socket.IO's long-lived ones aside) and returns the drain: stop
 * accepting connections, close the idle kept-alive ones, answer the running ones with `Connection: close`
 * (so no further request arrives on their connections), and resolve when none is left (or after
 * `timeoutMs`). A request that still slips in on a kept-alive connection once the drain began is refused
 * with a bare 503 and `Connection: close` before any work, as Fastify itself does while closing: a load
 * balancer retries it on another process.
 */
function trackRequests(app: App): (timeoutMs: number) => Promise<void> {
  const running = new Set<ServerResponse>();
  let draining = false;
  let idle: (() => void) | undefined;
  app.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith("/socket.io") || draining) return;
    running.add(res);
    res.once("close", () => {
      running.delete(res);
      if (running.size === 0) idle?.();
    });
  });
  app.addHook("onRequest", async (request, reply) => {
    if (!draining || running.has(reply.raw)) return;
    if (request.url.startsWith("/socket.io")) return;
    reply.hijack();
    reply.raw.writeHead(503, { connection: "close", "retry-after": "1", "content-length": "0" });
    reply.raw.end();
  });
  return async (timeoutMs) => {
    draining = true;
    for (const res of running) if (!res.headersSent) res.setHeader("connection", "close");
    app.server.close(() => undefined);
    app.server.closeIdleConnections();
    if (running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      idle = resolve;
      timer = setTimeout(resolve, timeoutMs);
    });
    clearTimeout(timer);
  };
}
