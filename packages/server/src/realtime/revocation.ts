import { and, gt, inArray, isNull, sql, eq } from "drizzle-orm";
import { profileOf, type Profile } from "@balcao/shared";
import type { RemoteSocket, Server, Socket } from "socket.io";
import type { AppContext } from "../context";
import { companies, refreshSessions, users } from "../db/schema";
import type { DomainEvent } from "../events/bus";
import type { Actor, AuthService } from "../modules/auth/service";
import { rooms } from "./rooms";

/**
 * A socket is authenticated once, at its handshake; this keeps it honest afterwards (issue 11). A socket is
 * closed when its session ends (logout, another login, password change, token reuse), its user is deleted
 * or changes profile, its token or session expires, or its company's subscription lapses. Queue changes
 * move the socket between queue rooms instead. Events close sockets at once on every node (the adapter
 * relays `disconnectSockets`); a periodic sweep of this process's sockets, one query for all of them,
 * catches whatever no event announced (a session revoked by another tool, a company blocked, a lost event).
 */

interface SocketData {
  actor: Actor;
}
type AnySocket = Socket | RemoteSocket<Record<string, never>, SocketData>;

/** Lets an `auth` packet (the reason, shown by the web app) leave before its socket is closed. */
const ANOTHER_LOGIN_GRACE_MS = 200;
/** Keeps the IN (...) list of one sweep query far below PostgreSQL's 65 535 parameters. */
const SWEEP_CHUNK = 5_000;
/** setTimeout's ceiling (~24.8 days); a longer deadline is re-armed by the sweep. */
const MAX_TIMER_MS = 2_147_483_647;

export class SocketRevocation {
  private sweepTimer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private sweeping = false;
  private readonly expiryTimers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly io: Server,
    private readonly ctx: AppContext,
    private readonly auth: AuthService,
    private readonly sweepIntervalMs: number,
  ) {}

  start(): void {
    this.unsubscribe = this.ctx.events.subscribe("revocation", (event) => this.onEvent(event), {
      // The cases of onEvent.
      types: ["auth.sessionsEnded", "auth.anotherLogin", "users.deleted", "companies.deleted", "companies.updated", "billing.paid", "users.updated"],
    });
    this.sweepTimer = setInterval(() => void this.sweep(), this.sweepIntervalMs);
    this.sweepTimer.unref();
  }

  stop(): void {
    this.unsubscribe?.();
    clearInterval(this.sweepTimer);
    for (const timer of this.expiryTimers.values()) clearTimeout(timer);
    this.expiryTimers.clear();
  }

  /** Closes the socket when its token or session expires, to the millisecond, without waiting for the sweep. */
  track(socket: Socket): void {
    const actor = (socket.data as SocketData).actor;
    const timer = setTimeout(() => socket.disconnect(true), Math.max(0, Math.min(actor.expiresAt - Date.now(), MAX_TIMER_MS)));
    timer.unref();
    this.expiryTimers.set(socket.id, timer);
    socket.once("disconnect", () => {
      clearTimeout(this.expiryTimers.get(socket.id));
      this.expiryTimers.delete(socket.id);
    });
  }

  private async onEvent(event: DomainEvent): Promise<void> {
    switch (event.type) {
      case "auth.sessionsEnded":
        this.io.in(event.sessionIds.map(rooms.session)).disconnectSockets(true);
        return;
      case "auth.anotherLogin": {
        const sessionRooms = event.revokedSessionIds.map(rooms.session);
        setTimeout(() => this.io.in(sessionRooms).disconnectSockets(true), ANOTHER_LOGIN_GRACE_MS).unref();
        return;
      }
      case "users.deleted":
        this.io.in(rooms.user(event.companyId, event.userId)).disconnectSockets(true);
        return;
      case "companies.deleted":
        this.io.in([rooms.company(event.companyId), rooms.billing(event.companyId)]).disconnectSockets(true);
        return;
      case "companies.updated":
        // A deactivated company is closed to everyone at once, not at the next sweep.
        if (!event.company.status) this.io.in([rooms.company(event.companyId), rooms.billing(event.companyId)]).disconnectSockets(true);
        return;
      case "billing.paid": {
        // The company paid: its billing-only sockets (expired company's admins) get every room of a full one.
        const sockets = await this.io.in(rooms.billing(event.companyId)).fetchSockets();
        for (const socket of sockets as AnySocket[]) {
          const actor = socket.data.actor;
          if (!actor?.billingOnly) continue;
          socket.join([rooms.company(actor.companyId), rooms.user(actor.companyId, actor.id), rooms.platform(), rooms.admins(actor.companyId)]);
          delete actor.billingOnly;
        }
        return;
      }
      case "users.updated": {
        const { user } = event;
        const sockets = await this.io.in(rooms.user(event.companyId, user.id)).fetchSockets();
        const profile = profileOf(user.profile);
        for (const socket of sockets as AnySocket[]) {
          const actor = socket.data.actor;
          // A new profile changes far more than rooms (menus, permissions): the client reconnects afresh.
          if (!actor || actor.profile !== profile || actor.super !== user.super) socket.disconnect(true);
          // A billing-only socket (expired company's admin) stays in its billing room only.
          else if (!actor.billingOnly)
            syncQueueRooms(
              socket,
              event.companyId,
              profile,
              user.queues.map((q) => q.id),
            );
        }
        return;
      }
    }
  }

  /** One query for every socket of this process: which of their sessions still stand, and with what access. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const local = [...this.io.of("/").sockets.values()];
      const sids = [...new Set(local.map((s) => (s.data as SocketData).actor?.sid).filter((sid): sid is string => !!sid))];
      const valid = new Map<string, Awaited<ReturnType<SocketRevocation["loadSessions"]>>[number]>();
      for (let i = 0; i < sids.length; i += SWEEP_CHUNK)
        for (const row of await this.loadSessions(sids.slice(i, i + SWEEP_CHUNK))) valid.set(row.sid, row);
      const now = Date.now();
      for (const socket of local) {
        const actor = (socket.data as SocketData).actor;
        const row = actor && valid.get(actor.sid);
        const access = row ? this.subscriptionAccess(row) : null;
        // A full socket closes when the subscription lapses (its admin reconnects billing-only).
        if (!actor || !row || row.userId !== actor.id || actor.expiresAt <= now || !access || (access === "billingOnly" && !actor.billingOnly)) {
          socket.disconnect(true);
          continue;
        }
        const profile = profileOf(row.profile);
        if (profile !== actor.profile || row.super !== actor.super) {
          socket.disconnect(true);
          continue;
        }
        if (actor.billingOnly) {
          if (access === "billingOnly") continue;
          // The company paid: the billing-only socket gets the rooms of a full one in place (closing it could
          // drop the `payment` event still on its way to the billing room).
          delete actor.billingOnly;
          socket.join([rooms.company(actor.companyId), rooms.user(actor.companyId, actor.id), rooms.platform()]);
        }
        const queueIds = (row.queueIds ?? []).map(Number);
        actor.queueIds = queueIds;
        syncQueueRooms(socket, actor.companyId, profile, queueIds);
      }
    } catch (err) {
      // The database may be briefly away (restart): the next sweep tries again; sockets stay as they are.
      this.ctx.log.warn(`socket session sweep failed: ${(err as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }

  private loadSessions(sids: string[]) {
    return this.ctx.database.db
      .select({
        sid: refreshSessions.id,
        userId: users.id,
        profile: users.profile,
        super: users.super,
        status: companies.status,
        dueDate: companies.dueDate,
        timeZone: companies.timeZone,
        queueIds: sql<number[]>`coalesce((select array_agg(uq.queue_id) from user_queues uq where uq.user_id = ${users.id}), '{}')`,
      })
      .from(refreshSessions)
      .innerJoin(users, eq(users.id, refreshSessions.userId))
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(and(inArray(refreshSessions.id, sids), isNull(refreshSessions.revokedAt), gt(refreshSessions.expiresAt, new Date())));
  }

  /** What the session may do now: everything, billing only (expired company's admin), or nothing (null). */
  private subscriptionAccess(row: {
    super: boolean;
    profile: string;
    status: boolean;
    dueDate: string | null;
    timeZone: string;
  }): "full" | "billingOnly" | null {
    try {
      return this.auth.subscriptionAccess(row, row).billingOnly ? "billingOnly" : "full";
    } catch {
      return null;
    }
  }
}

/** Puts a socket in exactly the ticket rooms its user's profile and queues allow (the handshake's rule). */
export function syncQueueRooms(socket: AnySocket, companyId: number, profile: Profile, queueIds: number[]): void {
  const queuePrefix = `company:${companyId}:queue:`;
  const wanted = new Set(profile === "admin" ? [] : queueIds.map((id) => rooms.queue(companyId, id)));
  for (const room of socket.rooms) if (room.startsWith(queuePrefix) && !wanted.has(room)) socket.leave(room);
  const missing = [...wanted].filter((room) => !socket.rooms.has(room));
  if (missing.length) socket.join(missing);
  if (profile === "admin") {
    if (!socket.rooms.has(rooms.admins(companyId))) socket.join(rooms.admins(companyId));
  } else if (socket.rooms.has(rooms.admins(companyId))) socket.leave(rooms.admins(companyId));
}
