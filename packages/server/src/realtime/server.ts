import type { Server as HttpServer } from "node:http";
import { Server, type Socket } from "socket.io";
import { and, eq } from "drizzle-orm";
import { SOCKET_PING_MS } from "@balcao/shared";
import type { AppContext } from "../context";
import { users } from "../db/schema";
import { modules } from "../modules";
import { isBackendRequest, queryToken } from "../http/backend";
import { AppError } from "../http/errors";
import type { Actor, AuthService } from "../modules/auth/service";
import { listenerSafePool } from "../db/resilience";
import { clusterAdapter } from "./clusterAdapter";
import { attachPresence } from "./presence";
import { SocketRevocation } from "./revocation";
import { rooms, type SocketEmit } from "./rooms";
import { LIVE_PACE_MS } from "../events/bus";

interface SocketData {
  actor: Actor;
}

/**
 * Socket.IO on the HTTP server: authenticates the handshake from the `auth` payload (the URL's query only
 * on the backend listener, for spec §7's clients; docs/security.md),
 * joins the rooms the token allows, and turns domain events into room emits. No module emits directly.
 */
export async function attachRealtime(httpServer: HttpServer, ctx: AppContext, auth: AuthService): Promise<Server> {
  const backendOrigins = ctx.config.backend?.corsOrigins ?? [];
  const corsOrigins = [...(ctx.config.publicUrl ? [ctx.config.publicUrl] : []), ...backendOrigins];
  const io = new Server<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>(httpServer, {
    path: "/socket.io",
    pingInterval: SOCKET_PING_MS,
    pingTimeout: SOCKET_PING_MS,
    serveClient: false,
    cors: corsOrigins.length > 0 ? { origin: corsOrigins, credentials: true } : undefined,
    allowRequest: (req, callback) => {
      // Browsers always send Origin on WebSocket upgrades; refuse foreign ones (ASVS 4.4.2).
      const origin = req.headers.origin;
      // The backend listener admits its configured web origins (BACKEND_CORS_ORIGINS) and originless apps.
      if (isBackendRequest(req) && backendOrigins.length > 0)
        return callback(null, !origin || backendOrigins.includes(origin) || isSameHost(origin, req.headers.host));
      // No Origin: not a browser (no cross-site risk; the token is still required).
      if (!origin) return callback(null, true);
      // Without PUBLIC_URL the served origin is the request's own Host: a page of another site is refused
      // (issue 11; before, any Origin was accepted then).
      if (!ctx.config.publicUrl) return callback(null, isSameHost(origin, req.headers.host));
      callback(null, origin === new URL(ctx.config.publicUrl).origin || isSameHost(origin, req.headers.host));
    },
  });

  // Fan-out between processes sharing DATABASE_URL; the embedded server belongs to one process only.
  const pool = ctx.database.pool;
  if (ctx.database.kind === "postgres") {
    await pool.query("CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)");
    // Its LISTEN connection survives a PostgreSQL restart: no crash, and it re-LISTENs (db/resilience.ts).
    io.adapter(clusterAdapter(listenerSafePool(pool, (err) => ctx.log.warn({ err }, "socket.io adapter: listener connection lost; reconnecting"))));
  }

  io.use(async (socket, next) => {
    try {
      const fromAuth = typeof socket.handshake.auth?.token === "string" ? socket.handshake.auth.token : undefined;
      // Spec §7's clients send `io(url, { query: { token } })`: accepted on the backend listener only.
      const token = fromAuth ?? (isBackendRequest(socket.request) ? queryToken(socket.handshake.query) : undefined);
      socket.data.actor = await auth.authenticate(token, { allowBillingOnly: true });
      next();
    } catch (err) {
      next(new Error(err instanceof AppError ? err.code : "ERR_SESSION_EXPIRED"));
    }
  });

  // Sockets are re-checked after the handshake: revoked sessions, deleted users, expiry (revocation.ts).
  const revocation = new SocketRevocation(io as unknown as Server, ctx, auth, ctx.config.socketSessionCheckMs);
  revocation.start();

  const db = ctx.database.db;
  // While the server shuts down, sockets disconnect en masse: skip the per-socket presence writes.
  let closing = false;
  const originalClose = io.close.bind(io);
  io.close = (fn?: (err?: Error) => void) => {
    closing = true;
    revocation.stop();
    return originalClose(fn);
  };
  io.on("connection", (socket: Socket) => {
    const actor = (socket.data as SocketData).actor;
    if (actor.billingOnly) {
      // An expired company's admin waiting to pay: the `payment` event only, no company traffic.
      socket.join([rooms.billing(actor.companyId), rooms.session(actor.sid)]);
      revocation.track(socket);
      socket.emit("ready");
      return;
    }
    socket.join([rooms.company(actor.companyId), rooms.user(actor.companyId, actor.id), rooms.session(actor.sid), rooms.platform()]);
    if (actor.profile === "admin") socket.join(rooms.admins(actor.companyId));
    else socket.join(actor.queueIds.map((queueId) => rooms.queue(actor.companyId, queueId)));
    revocation.track(socket);
    // Presence is best effort: a database briefly away must not turn into an unhandled rejection.
    const markOnline = () =>
      void db
        .update(users)
        .set({ online: true, lastSeenAt: new Date() })
        .where(and(eq(users.id, actor.id), eq(users.companyId, actor.companyId)))
        .catch(() => undefined);
    markOnline();
    socket.on("userStatus", markOnline);
    // Who else has a ticket open, and typing (collision guard, issue 16).
    attachPresence(io as unknown as Server, socket, ctx);
    socket.on("disconnect", async () => {
      if (closing) return;
      const remaining = await io
        .in(rooms.user(actor.companyId, actor.id))
        .fetchSockets()
        .catch(() => []);
      if (remaining.length === 0)
        await db
          .update(users)
          .set({ online: false })
          .where(and(eq(users.id, actor.id), eq(users.companyId, actor.companyId)))
          .catch(() => undefined);
    });
    socket.emit("ready");
  });

  // One process at a time delivers the outbox to sockets; the adapter carries each emit to every process.
  const deliveries = modules.flatMap((m) => (m.deliver ? [m.deliver] : []));
  const unsubscribe = ctx.events.subscribe(
    "realtime",
    (event) => {
      for (const deliver of deliveries) for (const emit of deliver(event)) send(io as unknown as Server, emit);
    },
    { paceMs: LIVE_PACE_MS },
  );
  const close = io.close.bind(io);
  io.close = (fn?: (err?: Error) => void) => {
    unsubscribe();
    return close(fn);
  };
  return io;
}

function send(io: Server, emit: SocketEmit): void {
  const target = emit.except ? io.to(emit.rooms).except(emit.except) : io.to(emit.rooms);
  target.emit(emit.event, emit.payload);
}

function isSameHost(origin: string, host: string | undefined): boolean {
  try {
    return !!host && new URL(origin).host === host;
  } catch {
    return false;
  }
}
