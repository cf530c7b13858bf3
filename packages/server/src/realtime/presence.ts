import { and, eq } from "drizzle-orm";
import type { Server, Socket } from "socket.io";
import type { AppContext } from "../context";
import { tickets } from "../db/schema";
import type { Actor } from "../modules/auth/service";
import { canSeeTicket } from "../modules/tickets/policy";
import { rooms } from "./rooms";

/** A typing notice is relayed at most once per this interval per socket (the client sends every ~2 s). */
export const TYPING_THROTTLE_MS = 1500;

export interface TicketViewer {
  id: number;
  name: string;
}
/** `ticketViewers`: who has the ticket open now (distinct users, each socket of a user counted once). */
export interface TicketViewersEvent {
  ticketId: number;
  viewers: TicketViewer[];
}
/** `ticketTyping`: a viewer is typing in the ticket's composer. */
export interface TicketTypingEvent {
  ticketId: number;
  user: TicketViewer;
}

interface PresenceData {
  actor: Actor;
  /** The ticket this socket has open (joinChatBox), if any. */
  viewing?: number;
  lastTypingAt?: number;
}

const ticketIdOf = (raw: unknown): number | null => {
  const value = typeof raw === "object" && raw !== null && "ticketId" in raw ? (raw as { ticketId: unknown }).ticketId : raw;
  const id = typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
};

/** Each server's last broadcast per ticket room (see `inTurn`). */
const broadcasts = new WeakMap<Server, Map<string, Promise<void>>>();

/**
 * Runs a room's broadcasts one after another: a list read before another socket joined must not reach the room
 * after the list read since (two attendants opening a ticket at once saw only the first of them).
 */
function inTurn(io: Server, room: string, broadcast: () => Promise<void>): Promise<void> {
  let rooms = broadcasts.get(io);
  if (!rooms) broadcasts.set(io, (rooms = new Map()));
  const turn = (rooms.get(room) ?? Promise.resolve()).catch(() => undefined).then(broadcast);
  rooms.set(room, turn);
  const done = () => {
    if (rooms.get(room) === turn) rooms.delete(room);
  };
  turn.then(done, done);
  return turn;
}

/**
 * Collision guard (issue 16): who has a ticket open and who is typing in it. Ephemeral: the state is the
 * ticket's Socket.IO room (`company:<id>:ticket:<id>`, joined by `joinChatBox` once the ticket is found in
 * the socket's company and visible to its user) and the sockets' own data, so it spans processes through
 * the adapter, never leaves the company, and ends with the socket.
 */
export function attachPresence(io: Server, socket: Socket, ctx: AppContext): void {
  const data = socket.data as PresenceData;
  const actor = data.actor;
  const db = ctx.database.db;

  const broadcastViewers = (ticketId: number) => {
    const room = rooms.ticket(actor.companyId, ticketId);
    return inTurn(io, room, async () => {
      const sockets = await io
        .in(room)
        .fetchSockets()
        .catch(() => []);
      const viewers = new Map<number, TicketViewer>();
      for (const s of sockets) {
        const other = (s.data as PresenceData).actor;
        if (other && other.companyId === actor.companyId) viewers.set(other.id, { id: other.id, name: other.name });
      }
      io.to(room).emit("ticketViewers", { ticketId, viewers: [...viewers.values()] } satisfies TicketViewersEvent);
    });
  };

  const leave = async () => {
    const ticketId = data.viewing;
    if (ticketId === undefined) return;
    data.viewing = undefined;
    await socket.leave(rooms.ticket(actor.companyId, ticketId));
    await broadcastViewers(ticketId);
  };

  socket.on("joinChatBox", async (raw: unknown) => {
    const ticketId = ticketIdOf(raw);
    if (ticketId === null || ticketId === data.viewing) return;
    const [ticket] = await db
      .select({ userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.id, ticketId), eq(tickets.companyId, actor.companyId)))
      .catch(() => []);
    if (!ticket || !canSeeTicket(actor, ticket) || socket.disconnected) return;
    await leave();
    data.viewing = ticketId;
    await socket.join(rooms.ticket(actor.companyId, ticketId));
    await broadcastViewers(ticketId);
  });

  socket.on("leaveChatBox", async (raw: unknown) => {
    const ticketId = ticketIdOf(raw);
    if (ticketId !== null && ticketId === data.viewing) await leave();
  });

  socket.on("typing", (raw: unknown) => {
    const ticketId = ticketIdOf(raw);
    if (ticketId === null || ticketId !== data.viewing) return;
    const now = Date.now();
    if (data.lastTypingAt !== undefined && now - data.lastTypingAt < TYPING_THROTTLE_MS) return;
    data.lastTypingAt = now;
    socket
      .to(rooms.ticket(actor.companyId, ticketId))
      .emit("ticketTyping", { ticketId, user: { id: actor.id, name: actor.name } } satisfies TicketTypingEvent);
  });

  // The socket has left every room by now: the others get the list without it.
  socket.on("disconnect", () => {
    const ticketId = data.viewing;
    data.viewing = undefined;
    if (ticketId !== undefined) void broadcastViewers(ticketId);
  });
}
