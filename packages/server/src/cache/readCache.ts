/**
 * Issue 20: what every inbound message or API call used to read again and barely changes — the company's settings,
 * the queues of a connection (the bot's menu), a connection's timed queue transfer, the company's active webhooks,
 * whether any campaign shipping awaits a reply, and an authenticated session's user and company — kept per process
 * and dropped by the events that tell of a change.
 *
 * Invalidation rides on the outbox (events/bus.ts `watch`): an event written in this process drops the
 * company's entries at once (`publish` follows a committed change, so the caller's next request reads the new
 * rows), and every process drops them again when it hears the event's commit through LISTEN/NOTIFY — so a
 * change made on another process behind the same PostgreSQL is followed as soon as its notification arrives.
 * While a change of this process is written but its commit not yet heard, the company is read around the
 * cache (its transaction may still be open: a read then would cache the old rows). If the LISTEN connection is
 * re-made (notifications may have been missed), everything is dropped. Entries also expire after `ttlMs`, a
 * bound for a change written with no event at all (a direct SQL update, a tool): every writer the app has
 * of what is cached here emits one (`settings.updated`, `queues.*`, `connections.updated|deleted`, `webhooks.*`,
 * `campaigns.confirmationRequested`, `auth.*`, `users.*`, `billing.paid`, `companies.*`; the operator's
 * reset-password writes its `auth.sessionsEnded` too).
 *
 * A load that raced an invalidation is not kept (per-company generation), and concurrent readers of one entry
 * share one query.
 */
import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../context";
import { campaignShippings, connectionQueues, connections, queues, settings, webhooks } from "../db/schema";
import type { WrittenEvents } from "../events/bus";
import { queueOrder } from "../modules/queues/service";
import { perContext } from "../perContext";

export type CachedQueue = Readonly<typeof queues.$inferSelect>;
export type CachedWebhook = Readonly<typeof webhooks.$inferSelect>;
/** A connection's timed queue transfer (spec §3 `timeSendQueue` minutes → `sendIdQueue`); null: no such connection. */
export type CachedQueueTransfer = Readonly<{ timeSendQueue: number; sendIdQueue: number }> | null;

type Part = "settings" | "queues" | "queueTransfers" | "webhooks" | "confirmations" | "sessions";
const ALL_PARTS: readonly Part[] = ["settings", "queues", "queueTransfers", "webhooks", "confirmations", "sessions"];

/** Which cached parts an event type drops. */
function affected(type: string): readonly Part[] {
  if (type === "settings.updated") return ["settings"];
  // A deleted queue leaves its attendants' queue lists (user_queues), which their sessions carry.
  if (type.startsWith("queues.")) return ["queues", "sessions"];
  if (type === "connections.updated" || type === "connections.deleted") return ["queues", "queueTransfers"];
  if (type.startsWith("webhooks.")) return ["webhooks"];
  // Only a shipping entering `confirmation` can turn "none awaits" into "some await" (leaving it needs no event:
  // a stale "some" costs a probe). Not `campaigns.*`: the progress events of a running campaign would hold the
  // company out of every part of the cache.
  if (type === "campaigns.confirmationRequested") return ["confirmations"];
  // Sessions ended (logout, another login, a password change), a user changed or deleted, a payment moving the
  // due date: what a session's actor is made of.
  if (type.startsWith("auth.") || type.startsWith("users.") || type.startsWith("billing.")) return ["sessions"];
  if (type === "companies.updated" || type === "companies.deleted") return ALL_PARTS;
  return [];
}

/** A company's cached sessions beyond which a new one first clears the expired. */
const SESSIONS_PURGE_AT = 32;

interface Slot<T> {
  value: Promise<T>;
  expires: number;
}

interface CompanyEntry {
  /** Bumped by every invalidation of the company: a load that started before one is not kept. */
  generation: number;
  /** One slot, under "company": every setting of the company. */
  settings: Map<"company", Slot<ReadonlyMap<string, string>>>;
  queues: Map<number, Slot<readonly CachedQueue[]>>;
  /** By connection id. */
  queueTransfers: Map<number, Slot<CachedQueueTransfer>>;
  /** One slot, under "company": the company's active webhooks. */
  webhooks: Map<"company", Slot<readonly CachedWebhook[]>>;
  /** One slot, under "company": whether some campaign shipping of the company awaits a reply. */
  confirmations: Map<"company", Slot<boolean>>;
  /** By session id: what authenticating that session read (auth/service.ts), if found. */
  sessions: Map<string, Slot<unknown>>;
  /** A change of this process written, its commit not yet heard: read around the cache until then. */
  heldUntil: number;
}

export interface ReadCacheOptions {
  ttlMs: number;
  /**
   * How long a session's actor is kept: short, as it bounds a revocation written with no event at all (a direct
   * SQL update). Every writer of the app emits one (auth.*, users.*, billing.paid, companies.*), and the periodic
   * socket sweep reads around the cache.
   */
  sessionTtlMs: number;
  /** How long a written change holds its company out of the cache if its commit is never heard (a rollback). */
  holdMs: number;
}

export class ReadCache {
  private readonly companies = new Map<number, CompanyEntry>();
  private readonly stopWatching: () => void;
  /** Invalidations seen (tests wait on this instead of a clock). */
  invalidations = 0;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly ctx: AppContext,
    private readonly options: ReadCacheOptions = { ttlMs: 60_000, sessionTtlMs: 5_000, holdMs: 10_000 },
    private readonly now: () => number = Date.now,
  ) {
    this.stopWatching = ctx.events.watch((written) => this.onWritten(written));
  }

  stop(): void {
    this.stopWatching();
    this.companies.clear();
  }

  /** The company's settings by key (all rows; keys written without `settings.updated` may lag by `ttlMs`). */
  settings(companyId: number): Promise<ReadonlyMap<string, string>> {
    return this.through(
      companyId,
      (entry) => entry.settings,
      "company",
      () => this.loadSettings(companyId),
    );
  }

  async setting(companyId: number, key: string): Promise<string | undefined> {
    return (await this.settings(companyId)).get(key);
  }

  /** The queues of a connection (its bot menu), in menu order. Rows are shared: never mutate them. */
  connectionQueues(companyId: number, connectionId: number): Promise<readonly CachedQueue[]> {
    return this.through(
      companyId,
      (entry) => entry.queues,
      connectionId,
      () => this.loadQueues(companyId, connectionId),
    );
  }

  /** The connection's timed queue transfer (tickets/queueTransfer.ts reads it for every waiting ticket's change). */
  queueTransfer(companyId: number, connectionId: number): Promise<CachedQueueTransfer> {
    return this.through(
      companyId,
      (entry) => entry.queueTransfers,
      connectionId,
      () => this.loadQueueTransfer(companyId, connectionId),
    );
  }

  /** The company's active webhooks (the webhook fan-out reads them for every event it handles). Never mutate them. */
  activeWebhooks(companyId: number): Promise<readonly CachedWebhook[]> {
    return this.through(
      companyId,
      (entry) => entry.webhooks,
      "company",
      () => this.loadActiveWebhooks(companyId),
    );
  }

  /**
   * Whether some campaign shipping of the company awaits its contact's reply (the campaigns' reply check runs for
   * every customer message; almost no company has one waiting).
   */
  awaitsConfirmations(companyId: number): Promise<boolean> {
    return this.through(
      companyId,
      (entry) => entry.confirmations,
      "company",
      () => this.loadAwaitsConfirmations(companyId),
    );
  }

  /**
   * What authenticating a session reads (its user, company and queues: auth/service.ts), for every request and
   * socket handshake of that session in a burst (issue 20: one statement less per API call). `load` reads it; a
   * session it does not find is not kept, so a new or ended one is read again each time.
   */
  session<T extends object>(companyId: number, sid: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const sessions = this.entry(companyId).sessions;
    const now = this.now();
    // Every login makes a new session id: expired entries go when new ones come (a miss), so the map stays as small
    // as the company's sessions of the last few seconds.
    if (sessions.size >= SESSIONS_PURGE_AT && !((sessions.get(sid)?.expires ?? 0) > now))
      for (const [id, slot] of sessions) if (slot.expires <= now) sessions.delete(id);
    const found = this.through(companyId, (entry) => entry.sessions, sid, load, {
      ttlMs: this.options.sessionTtlMs,
      keep: (row) => row !== undefined,
    });
    return found as Promise<T | undefined>;
  }

  /**
   * `part`'s entry for `key` while fresh, else `load`'s answer, kept for `ttlMs` (default: the cache's) unless the
   * company is held out (a change of this process not yet heard committed), the load fails, an invalidation raced
   * it, or `keep` refuses what it read. Concurrent readers of one entry share one load.
   */
  private through<K, T>(
    companyId: number,
    part: (entry: CompanyEntry) => Map<K, Slot<T>>,
    key: K,
    load: () => Promise<T>,
    { ttlMs = this.options.ttlMs, keep = () => true }: { ttlMs?: number; keep?: (loaded: T) => boolean } = {},
  ): Promise<T> {
    const entry = this.entry(companyId);
    const now = this.now();
    if (entry.heldUntil > now) return load();
    const slots = part(entry);
    const cached = slots.get(key);
    if (cached && cached.expires > now) return cached.value;
    const generation = entry.generation;
    const value = load();
    const slot = { value, expires: now + ttlMs };
    slots.set(key, slot);
    const forget = () => {
      if (slots.get(key) === slot) slots.delete(key);
    };
    value.then((loaded) => {
      if (entry.generation !== generation || !keep(loaded)) forget();
    }, forget);
    return value;
  }

  /** Resolves at the next invalidation after `seen` (tests: `const seen = cache.invalidations; …; await cache.invalidated(seen)`). */
  invalidated(seen: number): Promise<void> {
    if (this.invalidations > seen) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.invalidations <= seen) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  private entry(companyId: number): CompanyEntry {
    let entry = this.companies.get(companyId);
    if (!entry) {
      entry = {
        generation: 0,
        settings: new Map(),
        queues: new Map(),
        queueTransfers: new Map(),
        webhooks: new Map(),
        confirmations: new Map(),
        sessions: new Map(),
        heldUntil: 0,
      };
      this.companies.set(companyId, entry);
    }
    return entry;
  }

  private async loadSettings(companyId: number): Promise<ReadonlyMap<string, string>> {
    const rows = await this.ctx.database.db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(eq(settings.companyId, companyId));
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  private async loadQueues(companyId: number, connectionId: number): Promise<readonly CachedQueue[]> {
    const rows = await this.ctx.database.db
      .select({ queue: queues })
      .from(connectionQueues)
      .innerJoin(queues, eq(queues.id, connectionQueues.queueId))
      .where(and(eq(connectionQueues.companyId, companyId), eq(connectionQueues.connectionId, connectionId)))
      .orderBy(...queueOrder);
    return Object.freeze(rows.map((r) => Object.freeze(r.queue)));
  }

  private async loadQueueTransfer(companyId: number, connectionId: number): Promise<CachedQueueTransfer> {
    const [row] = await this.ctx.database.db
      .select({ timeSendQueue: connections.timeSendQueue, sendIdQueue: connections.sendIdQueue })
      .from(connections)
      .where(and(eq(connections.companyId, companyId), eq(connections.id, connectionId)));
    return row ? Object.freeze(row) : null;
  }

  private async loadActiveWebhooks(companyId: number): Promise<readonly CachedWebhook[]> {
    const rows = await this.ctx.database.db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.companyId, companyId), eq(webhooks.active, true)));
    return Object.freeze(rows.map((r) => Object.freeze(r)));
  }

  private async loadAwaitsConfirmations(companyId: number): Promise<boolean> {
    // The partial index of awaiting shippings, by its leading column; the predicate is a literal so it shows.
    const rows = await this.ctx.database.db
      .select({ id: campaignShippings.id })
      .from(campaignShippings)
      .where(and(eq(campaignShippings.companyId, companyId), sql`${campaignShippings.status} = 'confirmation'`))
      .limit(1);
    return rows.length > 0;
  }

  private onWritten({ phase, events }: WrittenEvents): void {
    if (events === null) {
      for (const entry of this.companies.values()) this.drop(entry, ALL_PARTS, phase);
      this.bump();
      return;
    }
    let any = false;
    for (const event of events) {
      const parts = affected(event.type);
      if (parts.length === 0) continue;
      const entry = this.companies.get(event.companyId);
      // A company never read here has nothing to drop; a written change still holds it out until heard.
      if (!entry && phase === "committed") continue;
      this.drop(entry ?? this.entry(event.companyId), parts, phase);
      any = true;
    }
    if (any) this.bump();
  }

  private drop(entry: CompanyEntry, parts: readonly Part[], phase: WrittenEvents["phase"]): void {
    entry.generation++;
    for (const part of parts) entry[part].clear();
    // Written here: held out until the commit is heard (or holdMs, for a rollback). Heard: released.
    entry.heldUntil = phase === "written" ? this.now() + this.options.holdMs : 0;
  }

  private bump(): void {
    this.invalidations++;
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** The read cache of an app context (one per process; created on first use). */
export const readCache = perContext((ctx) => new ReadCache(ctx));
