import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/postgres-adapter";
import { Server, type Socket } from "socket.io";
import { eq } from "drizzle-orm";
import { SOCKET_PING_MS } from "@balcao/shared";
import type { AppContext } from "../context";
import { users } from "../db/schema";
import { modules } from "../modules";
import { AppError } from "../http/errors";
import type { Actor, AuthService } from "../modules/auth/service";
import { rooms } from "./rooms";


interface SocketData {
  actor: Actor;
}

/**
 * Socket.IO on the HTTP server: authenticates the handshake from the `auth` payload (never the URL),
 * joins the rooms the token allows, and turns domain events into room emits. No module emits directly.
 */
export async function attachRealtime(httpServer: HttpServer, ctx: AppContext, auth: AuthService): Promise<Server> {
  const io = new Server<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>(httpServer, {
    path: "/socket.io",
    pingInterval: SOCKET_PING_MS,
    pingTimeout: SOCKET_PING_MS,
    serveClient: false,
    cors: ctx.config.publicUrl ? { origin: ctx.config.publicUrl, credentials: true } : undefined,
    allowRequest: (req, callback) => {
      // Browsers always send Origin on WebSocket upgrades; refuse foreign ones (ASVS 4.4.2).
      const origin = req.headers.origin;
      if (!origin || !ctx.config.publicUrl) return callback(null, true);
      callback(null, origin === new URL(ctx.config.publicUrl).origin || isSameHost(origin, req.headers.host));
    },
  });

  const pool = ctx.database.pool;
  if (pool) {
    await pool.query(
      "CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)",
    );
    io.adapter(createAdapter(pool));
  }

  io.use(async (socket, next) => {
    try {
      const token = typeof socket.handshake.auth?.token === "string" ? socket.handshake.auth.token : undefined;
      socket.data.actor = await auth.authenticate(token);
      next();
    } catch (err) {
      next(new Error(err instanceof AppError ? err.code : "ERR_SESSION_EXPIRED"));
    }
  });

  const db = ctx.database.db;
  // While the server shuts down, sockets disconnect en masse: skip the per-socket presence writes.
  let closing = false;
  const originalClose = io.close.bind(io);
  io.close = (fn?: (err?: Error) => void) => {
    closing = true;
    return originalClose(fn);
  };
  io.on("connection", (socket: Socket) => {
    const actor = (socket.data as SocketData).actor;
    socket.join([rooms.company(actor.companyId), rooms.user(actor.companyId, actor.id), rooms.session(actor.sid)]);
    if (actor.profile === "admin") socket.join(rooms.admins(actor.companyId));
    else socket.join(actor.queueIds.map((queueId) => rooms.queue(actor.companyId, queueId)));
    void db.update(users).set({ online: true, lastSeenAt: new Date() }).where(eq(users.id, actor.id));
    socket.on("userStatus", () => {
      void db.update(users).set({ online: true, lastSeenAt: new Date() }).where(eq(users.id, actor.id));
    });
    socket.on("disconnect", async () => {
      if (closing) return;
      const remaining = await io.in(rooms.user(actor.companyId, actor.id)).fetchSockets().catch(() => []);
      if (remaining.length === 0) await db.update(users).set({ online: false }).where(eq(users.id, actor.id)).catch(() => undefined);
    });
    socket.emit("ready");
  });

  const deliveries = modules.flatMap((m) => (m.deliver ? [m.deliver] : []));
  ctx.events.subscribe((event) => {
    for (const deliver of deliveries) deliver(io as unknown as Server, event);
  });
  return io;
}

function isSameHost(origin: string, host: string | undefined): boolean {
  try {
    return !!host && new URL(origin).host === host;
  } catch {
    return false;
  }
}
