/**
 * ChannelManager: runs the WhatsApp sessions this process owns and routes their events.
 *
 * - One owner per connection: a row in connection_leases (owner_id, expires_at) renewed every
 *   `leaseRenewMs`; a lease whose owner stopped renewing for `leaseTtlMs` is taken over atomically
 *   (INSERT … ON CONFLICT DO UPDATE … WHERE expires_at < now() OR owner_id = me). Writes a session
 *   makes to its connection row are fenced by the lease (they only apply while this process owns it).
 * - A connection should run somewhere while its status is not DISCONNECTED; with `autostart`, every
 *   process claims such connections whose lease is free or expired.
 * - REST commands (start, new QR, disconnect) run where they arrive when that process can own the
 *   connection; when another live process owns it they are relayed through connection_leases.command,
 *   which the owner polls every `commandPollMs`.
 * - `qr`/`status` events update the connection row and publish `connections.session`; every other
 *   event goes to the listeners registered with `onEvent` (the tickets pipeline): in order per chat, chats
 *   concurrently (issue 20; see `laneOf`).
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { and, eq, isNotNull, ne, notExists, sql, inArray } from "drizzle-orm";
import pino, { type Logger } from "pino";
import type { Config } from "../config/env";
import type { Database, Db } from "../db/client";
import { CONNECTION_REASONS, type ConnectionReason, type ConnectionStatus } from "@balcao/shared";
import { connectionEvents, connectionLeases, connections } from "../db/schema";
import { wipeAuthState } from "./baileys/authState";
import type { EventBus } from "../events/bus";
import { presentConnection } from "../modules/connections/presenter";
import { ChannelError, type ChannelAddress, type ChannelEvent, type ChannelProvider, type ChannelSession } from "./types";

export interface ChannelEventContext {
  companyId: number;
  connectionId: number;
}

/** Receives every non-connection event (message, ack, failed, deleted, call, contacts) of every session here. */
export type ChannelEventListener = (context: ChannelEventContext, event: ChannelEvent) => Promise<void>;

/** A connection's status changed (recorded on its health timeline): for alerts and counters. */
export interface StatusChange extends ChannelEventContext {
  previous: ConnectionStatus | null;
  status: ConnectionStatus;
  reason: ConnectionReason | null;
  at: Date;
}
export type StatusListener = (change: StatusChange) => Promise<void>;

export type ChannelCommand = "start" | "newqr" | "stop";

interface LiveSession {
  companyId: number;
  connectionId: number;
  channel: string;
  session: ChannelSession;
  generation: number;
  closed: boolean;
  /** The last connection-wide event (qr, status, pairing code): every later event waits for it. */
  barrier: Promise<void>;
  /** Per chat (see `laneOf`), the end of its last event: a chat's events run in emission order. */
  lanes: Map<string, Promise<void>>;
}

/**
 * Where an event waits (issue 20). A chat's messages, deletions, calls (and whatever else names its chat) run in emission order, one at a
 * time, while other chats run meanwhile: the pipeline, and so the bot's replies, greetings and out-of-hours
 * messages, keep each customer's order without one busy connection serialising every customer.
 * "barrier": connection-wide (qr, status, pairing code): after everything before it, and before everything
 * after it. "after": acks, failures and address books name no chat: after everything emitted before them
 * (the message they refer to is stored first), without holding back later messages.
 */
function laneOf(event: ChannelEvent): string {
  if (event.type === "message") return chatLane(event.message.chat);
  if (event.type === "call") return chatLane(event.from);
  // Deletions, and any other event about one chat's message (reactions, edits…).
  if ("chat" in event) return chatLane(event.chat);
  if (event.type === "ack" || event.type === "failed" || event.type === "contacts") return "after";
  return "barrier";
}

/** One lane per person: the phone digits when the address carries them (a LID with its phone shares the phone's lane). */
function chatLane(chat: ChannelAddress): string {
  if (chat.kind === "phone") return `phone:${chat.id.replace(/\D/g, "")}`;
  const phone = chat.alternates?.find((a) => a.kind === "phone");
  if (phone) return `phone:${phone.id.replace(/\D/g, "")}`;
  return `${chat.kind}:${chat.id}`;
}

export interface ChannelManagerDeps {
  config: Config;
  database: Database;
  events: EventBus;
}

export class ChannelManager {
  readonly ownerId: string;
  readonly log: Logger;
  private readonly providers = new Map<string, ChannelProvider>();
  private readonly live = new Map<number, LiveSession>();
  /** Connections a command is being applied to here: a lease round must not start them meanwhile. */
  private readonly commanding = new Set<number>();
  private listeners: ChannelEventListener[] = [];
  private statusListeners: StatusListener[] = [];
  private statusChain: Promise<void> = Promise.resolve();
  private generation = 0;
  private renewTimer?: NodeJS.Timeout;
  private pollTimer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private polling?: Promise<void>;
  private claiming = false;
  private stopped = false;

  constructor(private readonly deps: ChannelManagerDeps) {
    this.ownerId = `${os.hostname().slice(0, 40)}:${process.pid}:${randomBytes(6).toString("hex")}`;
    this.log = pino({ level: deps.config.logLevel, name: "channels" });
  }

  private get db(): Db {
    return this.deps.database.db;
  }

  private get options() {
    return this.deps.config.channels;
  }

  // ─── Providers and listeners ──────────────────────────────────────────────────────────────────

  /** Registers (or replaces) the provider for `provider.name`. */
  registerProvider(provider: ChannelProvider): void {
    this.providers.set(provider.name, provider);
  }

  provider<T extends ChannelProvider = ChannelProvider>(name: string): T | undefined {
    return this.providers.get(name) as T | undefined;
  }

  channels(): string[] {
    return [...this.providers.keys()];
  }

  /** Subscribes to message/ack/failed/deleted/call/contacts events; returns the unsubscribe function. */
  onEvent(listener: ChannelEventListener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Subscribes to status changes of every session here (after they are written); returns the unsubscribe function. */
  onStatus(listener: StatusListener): () => void {
    this.statusListeners.push(listener);
    return () => {
      this.statusListeners = this.statusListeners.filter((l) => l !== listener);
    };
  }

  /**
   * Pairing by phone code (issue 21): asks the connection's live session (here, waiting for a pairing) for
   * the code to type on the phone. The status becomes PAIRING with the code in place of the QR.
   */
  async requestPairingCode(companyId: number, connectionId: number, phoneDigits: string): Promise<{ code: string; expiresAt: Date }> {
    const session = this.session(companyId, connectionId);
    if (!session.requestPairingCode) throw new ChannelError("UNSUPPORTED");
    const result = await session.requestPairingCode(phoneDigits);
    const entry = this.live.get(connectionId);
    if (entry) await settled(entry);
    return result;
  }

  /**
   * Hands an event that did not come from a live session (a Cloud API webhook processed by a job, in any
   * process) to the listeners, like a session's own events. Status events are not accepted here.
   */
  async dispatch(context: ChannelEventContext, event: Exclude<ChannelEvent, { type: "qr" | "status" | "pairingCode" }>): Promise<void> {
    for (const listener of this.listeners) await listener(context, event);
  }

  /** The live session of a connection owned by this process, for sending. Throws ChannelError NOT_CONNECTED otherwise. */
  session(companyId: number, connectionId: number): ChannelSession {
    const entry = this.live.get(connectionId);
    if (!entry || entry.closed || entry.companyId !== companyId) throw new ChannelError("NOT_CONNECTED");
    return entry.session;
  }

  /** Whether this process runs the connection's session now. */
  isLocal(connectionId: number): boolean {
    const entry = this.live.get(connectionId);
    return !!entry && !entry.closed;
  }

  localConnectionIds(): number[] {
    return [...this.live.values()].filter((e) => !e.closed).map((e) => e.connectionId);
  }

  // ─── Process lifecycle ────────────────────────────────────────────────────────────────────────

  /** Starts the lease loop: claims and starts every connection that should run and has no live owner. */
  async start(): Promise<void> {
    this.stopped = false;
    this.claiming = true;
    await this.tick();
    this.renewTimer = setInterval(() => void this.tick(), this.options.leaseRenewMs);
    this.renewTimer.unref?.();
    this.startPolling();
  }

  private startPolling(): void {
    if (this.pollTimer || this.stopped) return;
    this.pollTimer = setInterval(() => void this.pollCommands(), this.options.commandPollMs);
    this.pollTimer.unref?.();
  }

  /** Graceful shutdown: closes local sessions (keeping their pairing) and releases the leases at once. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.clearTimers();
    await Promise.allSettled([this.ticking, this.polling]);
    const entries = [...this.live.values()];
    this.live.clear();
    await Promise.allSettled(entries.map((e) => this.closeEntry(e)));
    await this.db
      .delete(connectionLeases)
      .where(eq(connectionLeases.ownerId, this.ownerId))
      .catch((err) => this.log.warn({ err }, "could not release leases"));
  }

  /**
   * What a crashed process leaves behind: sessions gone, timers stopped, leases NOT released (they
   * expire). Used by the takeover test; never by the server.
   */
  async crash(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    const entries = [...this.live.values()];
    this.live.clear();
    await Promise.allSettled(entries.map((e) => this.closeEntry(e)));
  }

  private clearTimers(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.renewTimer = this.pollTimer = undefined;
  }

  /** One lease round: renew ours, drop sessions whose lease we lost, claim free ones (when autostarted). */
  tick(): Promise<void> {
    if (!this.ticking)
      this.ticking = this.runTick()
        .catch((err) => this.log.error({ err }, "lease round failed"))
        .finally(() => {
          this.ticking = undefined;
        });
    return this.ticking;
  }

  private expiresAt() {
    return sql`now() + (${this.options.leaseTtlMs}::int * interval '1 millisecond')`;
  }

  private async runTick(): Promise<void> {
    if (this.stopped) return;
    const renewed = await this.db
      .update(connectionLeases)
      .set({ expiresAt: this.expiresAt(), updatedAt: new Date() })
      .where(eq(connectionLeases.ownerId, this.ownerId))
      .returning({ connectionId: connectionLeases.connectionId });
    const held = new Set(renewed.map((r) => r.connectionId));
    for (const entry of [...this.live.values()]) {
      if (!held.has(entry.connectionId)) {
        this.log.warn({ connectionId: entry.connectionId }, "lease lost: stopping the local session");
        this.live.delete(entry.connectionId);
        await this.closeEntry(entry);
      }
    }
    if (!this.claiming || this.stopped) return;
    const channels = this.channels();
    if (channels.length === 0) return;
    const claimable = this.db
      .select({
        connectionId: connections.id,
        companyId: connections.companyId,
        ownerId: sql<string>`${this.ownerId}`.as("owner_id"),
        expiresAt: sql<Date>`${this.expiresAt()}`.as("expires_at"),
        // insert … select needs every column of connection_leases, in table order.
        command: sql<string | null>`null::varchar`.as("command"),
        createdAt: sql<Date>`now()`.as("created_at"),
        updatedAt: sql<Date>`now()`.as("updated_at"),
      })
      .from(connections)
      .where(
        and(
          ne(connections.status, "DISCONNECTED"),
          inArray(connections.channel, channels),
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(connectionLeases)
              .where(
                and(
                  eq(connectionLeases.connectionId, connections.id),
                  ne(connectionLeases.ownerId, this.ownerId),
                  sql`${connectionLeases.expiresAt} >= now()`,
                ),
              ),
          ),
        ),
      );
    const claimed = await this.db
      .insert(connectionLeases)
      .select(claimable)
      .onConflictDoUpdate({
        target: connectionLeases.connectionId,
        // A takeover drops the previous owner's pending command; our own pending command is kept.
        set: {
          ownerId: sql`excluded.owner_id`,
          expiresAt: sql`excluded.expires_at`,
          command: sql`case when ${connectionLeases.ownerId} = excluded.owner_id then ${connectionLeases.command} else null end`,
          updatedAt: new Date(),
        },
        setWhere: sql`${connectionLeases.expiresAt} < now() or ${connectionLeases.ownerId} = excluded.owner_id`,
      })
      .returning({ connectionId: connectionLeases.connectionId, companyId: connectionLeases.companyId });
    for (const { connectionId, companyId } of claimed) {
      if (this.stopped) return;
      if (!this.live.has(connectionId) && !this.commanding.has(connectionId)) await this.startLocal(companyId, connectionId, { claimed: true });
    }
  }

  /** Applies the commands other processes relayed to the connections this process owns. */
  pollCommands(): Promise<void> {
    if (!this.polling)
      this.polling = (async () => {
        const pending = await this.db
          .select({ connectionId: connectionLeases.connectionId, companyId: connectionLeases.companyId, command: connectionLeases.command })
          .from(connectionLeases)
          .where(and(eq(connectionLeases.ownerId, this.ownerId), isNotNull(connectionLeases.command)));
        for (const p of pending) {
          const [taken] = await this.db
            .update(connectionLeases)
            .set({ command: null })
            .where(
              and(
                eq(connectionLeases.connectionId, p.connectionId),
                eq(connectionLeases.ownerId, this.ownerId),
                eq(connectionLeases.command, p.command!),
              ),
            )
            .returning({ connectionId: connectionLeases.connectionId });
          if (taken) await this.apply(p.companyId, p.connectionId, p.command as ChannelCommand);
        }
      })()
        .catch((err) => this.log.error({ err }, "command poll failed"))
        .finally(() => {
          this.polling = undefined;
        });
    return this.polling;
  }

  // ─── Commands (REST) ──────────────────────────────────────────────────────────────────────────

  /** Takes the connection's lease if it is free, expired or already ours. */
  async claim(companyId: number, connectionId: number): Promise<boolean> {
    const rows = await this.db
      .insert(connectionLeases)
      .values({ connectionId, companyId, ownerId: this.ownerId, expiresAt: this.expiresAt() })
      .onConflictDoUpdate({
        target: connectionLeases.connectionId,
        set: { ownerId: this.ownerId, expiresAt: this.expiresAt(), updatedAt: new Date() },
        setWhere: sql`${connectionLeases.expiresAt} < now() or ${connectionLeases.ownerId} = ${this.ownerId}`,
      })
      .returning({ connectionId: connectionLeases.connectionId });
    return rows.length === 1;
  }

  private async release(connectionId: number): Promise<void> {
    await this.db.delete(connectionLeases).where(and(eq(connectionLeases.connectionId, connectionId), eq(connectionLeases.ownerId, this.ownerId)));
  }

  /**
   * Runs a command here when this process can own the connection, else relays it to the owner.
   * Returns where it ran. `start` (re)starts the session; `newqr` wipes the pairing then starts;
   * `stop` logs out (wipes the pairing) and leaves the connection DISCONNECTED.
   */
  async command(companyId: number, connectionId: number, command: ChannelCommand): Promise<"local" | "relayed"> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.claim(companyId, connectionId)) {
        this.startPolling();
        await this.apply(companyId, connectionId, command);
        return "local";
      }
      const relayed = await this.db
        .update(connectionLeases)
        .set({ command })
        .where(
          and(
            eq(connectionLeases.connectionId, connectionId),
            ne(connectionLeases.ownerId, this.ownerId),
            sql`${connectionLeases.expiresAt} >= now()`,
          ),
        )
        .returning({ connectionId: connectionLeases.connectionId });
      if (relayed.length) return "relayed";
    }
    throw new ChannelError("NOT_CONNECTED", "could not reach the connection's owner");
  }

  /** Before a connection row is deleted: ends its session here (logging out) and drops its state. */
  async forget(companyId: number, connectionId: number): Promise<void> {
    const entry = this.live.get(connectionId);
    if (entry && entry.companyId === companyId) {
      this.live.delete(connectionId);
      entry.closed = true;
      await entry.session.logout().catch((err) => this.log.warn({ err, connectionId }, "logout failed"));
    }
    for (const provider of this.providers.values()) (provider as { forget?: (id: number) => void }).forget?.(connectionId);
  }

  private async apply(companyId: number, connectionId: number, command: ChannelCommand): Promise<void> {
    this.commanding.add(connectionId);
    try {
      await this.applyNow(companyId, connectionId, command);
    } finally {
      this.commanding.delete(connectionId);
    }
  }

  private async applyNow(companyId: number, connectionId: number, command: ChannelCommand): Promise<void> {
    if (command === "start") return this.startLocal(companyId, connectionId);
    const entry = this.live.get(connectionId);
    if (entry) {
      this.live.delete(connectionId);
      entry.closed = true;
      await entry.session.logout().catch((err) => this.log.warn({ err, connectionId }, "logout failed"));
    }
    await wipeAuthState(this.db, companyId, connectionId);
    if (command === "newqr") return this.startLocal(companyId, connectionId);
    await this.writeStatus(companyId, connectionId, { status: "DISCONNECTED", qrcode: "", retries: 0, reason: "requested" });
    await this.release(connectionId);
  }

  /** (Re)starts the session of a connection whose lease this process holds. */
  private async startLocal(companyId: number, connectionId: number, { claimed = false } = {}): Promise<void> {
    const previous = this.live.get(connectionId);
    if (previous) {
      this.live.delete(connectionId);
      await this.closeEntry(previous);
    }
    const [row] = await this.db
      .select({ channel: connections.channel, status: connections.status })
      .from(connections)
      .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)))
      .limit(1);
    // A lease round reads the statuses before it claims: a stop that committed in between (status written,
    // lease released) must not be undone by the claim, so the status is read again here.
    if (!row || (claimed && row.status === "DISCONNECTED")) {
      await this.release(connectionId);
      return;
    }
    const provider = this.providers.get(row.channel);
    if (!provider) {
      this.log.warn({ connectionId, channel: row.channel }, "no provider for this channel here");
      await this.writeStatus(companyId, connectionId, {
        status: "DISCONNECTED",
        qrcode: "",
        reason: "startFailed",
        detail: `no ${row.channel} provider`,
      });
      await this.release(connectionId);
      return;
    }
    const entry: LiveSession = {
      companyId,
      connectionId,
      channel: row.channel,
      generation: ++this.generation,
      closed: false,
      barrier: Promise.resolve(),
      lanes: new Map(),
      session: undefined as unknown as ChannelSession,
    };
    entry.session = provider.createSession({ companyId, connectionId, emit: (event) => this.enqueue(entry, event) });
    this.live.set(connectionId, entry);
    try {
      await entry.session.connect();
    } catch (err) {
      this.log.error({ err, connectionId }, "session failed to start");
      await this.enqueue(entry, {
        type: "status",
        status: "DISCONNECTED",
        reason: "startFailed",
        detail: String((err as Error)?.message ?? err).slice(0, 300),
      });
    }
  }

  private async closeEntry(entry: LiveSession): Promise<void> {
    entry.closed = true;
    await entry.session.disconnect().catch((err) => this.log.warn({ err, connectionId: entry.connectionId }, "disconnect failed"));
  }

  // ─── Events ───────────────────────────────────────────────────────────────────────────────────

  private enqueue(entry: LiveSession, event: ChannelEvent): Promise<void> {
    const lane = laneOf(event);
    const after = lane === "barrier" || lane === "after" ? settled(entry) : (entry.lanes.get(lane) ?? entry.barrier);
    const run = after.then(() => (entry.closed ? undefined : this.handle(entry, event)));
    const done = run.catch((err) => this.log.error({ err, connectionId: entry.connectionId, event: event.type }, "channel event failed"));
    if (lane === "barrier") {
      // Every lane is part of `done` now: later events chain after the barrier alone.
      entry.barrier = done;
      entry.lanes.clear();
      return done;
    }
    // "after" cannot clash with a chat's lane (those hold a colon).
    entry.lanes.set(lane, done);
    void done.then(() => {
      if (entry.lanes.get(lane) === done) entry.lanes.delete(lane);
    });
    return done;
  }

  private async handle(entry: LiveSession, event: ChannelEvent): Promise<void> {
    const { companyId, connectionId } = entry;
    if (event.type === "qr") {
      await this.writeStatus(companyId, connectionId, { status: "qrcode", qrcode: event.qr }, entry);
      return;
    }
    if (event.type === "pairingCode") {
      await this.writeStatus(companyId, connectionId, { status: "PAIRING", qrcode: event.code }, entry);
      return;
    }
    if (event.type === "status") {
      const fields: StatusFields = { status: event.status };
      if (event.reason) {
        const known = (CONNECTION_REASONS as readonly string[]).includes(event.reason);
        fields.reason = known ? (event.reason as ConnectionReason) : "unknown";
        if (!known) fields.detail = event.reason;
      }
      if (event.detail) fields.detail = event.detail;
      if (event.status !== "qrcode") fields.qrcode = "";
      if (event.retries !== undefined) fields.retries = event.retries;
      if (event.status === "CONNECTED") {
        fields.retries = event.retries ?? 0;
        if (event.account) fields.number = event.account;
      }
      // A provider gave up (logged out, replaced, banned…): nobody should restart it until asked. It stops
      // counting as local at once; the lease is released once the status is written.
      if (event.status === "DISCONNECTED" && this.live.get(connectionId) === entry) this.live.delete(connectionId);
      await this.writeStatus(companyId, connectionId, fields, entry);
      if (event.status === "DISCONNECTED") {
        entry.closed = true;
        void entry.session.disconnect().catch(() => undefined);
        await this.release(connectionId);
      }
      return;
    }
    for (const listener of this.listeners) {
      try {
        await listener({ companyId, connectionId }, event);
      } catch (err) {
        this.log.error({ err, connectionId, event: event.type }, "channel event listener failed");
      }
    }
  }

  /**
   * Updates status fields, fenced by the lease: a process that lost the connection cannot overwrite
   * the new owner's state. Publishes `connections.session` when the row changed.
   */
  private async writeStatus(companyId: number, connectionId: number, statusFields: StatusFields, entry?: LiveSession): Promise<void> {
    const { reason, detail, ...fields } = statusFields;
    const [before] = await this.db
      .select({ status: connections.status })
      .from(connections)
      .where(and(eq(connections.id, connectionId), eq(connections.companyId, companyId)))
      .limit(1);
    const [row] = await this.db
      .update(connections)
      .set({ ...fields, updatedAt: new Date() })
      .where(
        and(
          eq(connections.id, connectionId),
          eq(connections.companyId, companyId),
          sql`exists (select 1 from ${connectionLeases} where ${connectionLeases.connectionId} = ${connectionId} and ${connectionLeases.ownerId} = ${this.ownerId})`,
        ),
      )
      .returning();
    if (!row) {
      if (entry && this.live.get(connectionId) === entry) {
        this.log.warn({ connectionId }, "status write refused (lease lost): stopping the local session");
        this.live.delete(connectionId);
        await this.closeEntry(entry);
      }
      return;
    }
    const previous = (before?.status ?? null) as ConnectionStatus | null;
    if (previous !== row.status || reason)
      await this.recordStatus(
        { companyId, connectionId, previous, status: row.status as ConnectionStatus, reason: reason ?? null, at: row.updatedAt },
        detail,
        row.retries,
      );
    const connection = await presentConnection(this.db, row, { admin: true });
    this.deps.events.publish({ type: "connections.session", companyId, connection });
  }

  /**
   * The health timeline (issue 21): every status change with its mapped reason, in connection_events and in
   * the log (with the connection and company ids), then the status listeners (alerts).
   */
  private async recordStatus(change: StatusChange, detail: string | undefined, retries: number): Promise<void> {
    const { companyId, connectionId, previous, status, reason } = change;
    await this.db
      .insert(connectionEvents)
      .values({ companyId, connectionId, status, reason, detail: detail?.slice(0, 300) ?? null, retries, createdAt: change.at });
    const level = status === "DISCONNECTED" || status === "TIMEOUT" ? "warn" : "info";
    this.log[level]({ companyId, connectionId, previous, status, reason, detail, retries }, "connection status changed");
    // In order, but off the session's event queue: a slow listener (a job to queue) must not delay the session.
    const listeners = this.statusListeners;
    this.statusChain = this.statusChain.then(async () => {
      for (const listener of listeners) {
        try {
          await listener(change);
        } catch (err) {
          this.log.error({ err, companyId, connectionId }, "connection status listener failed");
        }
      }
    });
  }
}

/** Resolves once every event emitted so far by the session has been handled. */
function settled(entry: LiveSession): Promise<void> {
  return Promise.all([entry.barrier, ...entry.lanes.values()]).then(() => undefined);
}

interface StatusFields {
  status: string;
  reason?: ConnectionReason;
  detail?: string;
  qrcode?: string;
  retries?: number;
  number?: string;
}
