/**
 * Domain events, durable: the outbox.
 *
 * Each module declares its own events by augmenting `DomainEvents`
 * (`declare module "../../events/bus" { interface DomainEvents { "tickets.updated": {...} } }`), so the union
 * grows without a central file to edit. Every event carries its companyId.
 *
 * The contract (docs/decisions.md, "Outbox and job runner"):
 * - `record(tx, …events)` writes the events in the transaction of the change that causes them; `publish(…)`
 *   writes them on their own for code that has no transaction. Nothing is delivered before commit, and a
 *   committed event is never lost: a process killed after the commit delivers it when any process next runs.
 * - Each consumer group (`subscribe(group, handler)`) receives every event at least once, in commit order,
 *   handled by one process at a time (a transaction-scoped advisory lock per group); its position is a row in
 *   `outbox_cursors`, moved in the same transaction that read the batch. Handlers get `eventId` for
 *   idempotency. A group may declare a `key` (ticket, connection…): events of one key stay in order, different
 *   keys run concurrently.
 * - Delivery starts at once in the process that wrote the events and, through LISTEN/NOTIFY, in every other
 *   process; a poll every `pollMs` covers a lost notification.
 * - Events are ordered by their writing transaction's id (txid), and a reader takes only events of
 *   transactions older than every transaction of this database still running, so an event committed late
 *   with a lower id is never skipped. Changes to one row are serialised by its lock, so for an aggregate this
 *   is the order of its changes, except when a transaction that wrote elsewhere first then waited for the
 *   row: consumers that need strict order carry the full state or re-read it.
 */
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database, DbOrTx } from "../db/client";
import type { Notifications } from "../db/notifications";
import { namedQuery } from "../db/statement";

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEvents {}

export type DomainEvent = { [K in keyof DomainEvents]: { type: K; companyId: number } & DomainEvents[K] }[keyof DomainEvents];

/** An event as a consumer receives it: with the id that makes its handling idempotent. */
export type DeliveredEvent = DomainEvent & { eventId: string };

export type DomainEventHandler = (event: DeliveredEvent) => void | Promise<void>;

/**
 * What a watcher (`EventBus.watch`) hears: the company and type of events as they are written in this
 * process ("written": before their transaction commits, or at once for `publish`, which follows a committed
 * change), then as their commit is heard by this process, whichever process wrote them ("committed", from
 * the NOTIFY payload). `null` = anything may have changed (a payload too long to list, or the LISTEN
 * connection was re-made and notifications may have been missed).
 */
export type WrittenEvents = { phase: "written" | "committed"; events: { companyId: number; type: string }[] | null };
export type EventWatcher = (written: WrittenEvents) => void;

export interface SubscribeOptions {
  /** Events with the same key are handled in order; different keys concurrently. Default: all in order. */
  key?: (event: DomainEvent) => string | number | undefined;
  /** Events read per transaction (default 200). */
  batchSize?: number;
  /**
   * The event types the group handles (default: every type). The group then runs only when a commit wrote one
   * of them (or on the fallback poll), reads only those, and moves its cursor past the others: a consumer of a
   * rare event costs nothing per inbound message (issue 20).
   */
  types?: readonly DomainEvent["type"][];
  /**
   * At most one round per `paceMs` (default 0: at once). For a group whose events need no immediacy — a
   * webhook, a timer minutes away, a campaign's reply — the events of that window are delivered in one round
   * instead of one round per few of them (issue 20: a round costs about six statements, and at load every
   * group ran one per few inbound messages). A round after a quiet spell still starts at once.
   */
  paceMs?: number;
}

/** The pace (`SubscribeOptions.paceMs`) of a group whose events need no immediacy. */
export const BACKGROUND_PACE_MS = 100;
/**
 * The pace of a group someone is waiting on (the attendants' sockets, the bot's answers): too short to be felt,
 * long enough that the events of a burst share a round.
 */
export const LIVE_PACE_MS = 25;

interface Group {
  name: string;
  handler: DomainEventHandler;
  options: SubscribeOptions;
  /** `options.types` as a set; null = every type. */
  types: ReadonlySet<string> | null;
  running?: Promise<void>;
  /**
   * Run another round after this one: more events than a batch, or a kick the running round may not have
   * seen (it came after the round read its horizon; see `dispatch`).
   */
  again: boolean;
  retryTimer?: NodeJS.Timeout;
  failures: number;
  /** When its last round started (ms epoch), for `paceMs`. */
  lastRoundAt: number;
}

interface EventRow {
  id: string;
  txid: string;
  company_id: number;
  type: string;
  payload: Record<string, unknown>;
}

/** A row of a round's `events` statement: the cursor, and an event after it (all null when there is none). */
type CursorEventRow = { cursor_txid: string; cursor_event_id: string; waiting: boolean | null } & (EventRow | { [K in keyof EventRow]: null });

const CHANNEL = "balcao_outbox";
/** NOTIFY payloads are limited to 8000 bytes; a longer list of (company, type) is sent as "*" (anything). */
const MAX_PAYLOAD = 7_000;

/**
 * The oldest transaction id that may still write events: the oldest id among this database's other running
 * transactions, else the next id to be assigned. Events of lower txids are final. Only this database counts
 * (a long transaction elsewhere on the server must not stall delivery); `backend_xid` is 32-bit, so it is
 * widened with the current epoch. All of the app's connections use one role, which sees their xids.
 */
const HORIZON = `
  with now as (select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as next)
  select coalesce(min(case when x.xid <= now.next % 4294967296 then now.next - now.next % 4294967296 + x.xid
                          else now.next - now.next % 4294967296 - 4294967296 + x.xid end), min(now.next)) as txid
  from now left join (
    select backend_xid::text::bigint as xid from pg_stat_activity
    where datname = current_database() and backend_xid is not null and pid <> pg_backend_pid()
  ) x on true`;
/** Events (a JSON array of rows) written in order, and the NOTIFY that tells every process of them. */
const writeEvents = namedQuery(
  "outbox_write_events",
  `with written as (
     insert into outbox_events (company_id, type, payload)
     select (e->>'companyId')::int, e->>'type', e->'payload' from jsonb_array_elements($1::jsonb) with ordinality as x(e, n) order by n
   ) select pg_notify('${CHANNEL}', $2)`,
);
/**
 * Writes events in the caller's transaction without an event bus: for a process that runs no app, such as an
 * operator command (cli/), whose change a running server must hear (its NOTIFY tells every process at commit).
 * Apps use `EventBus.record`, which also tells this process's watchers.
 */
export async function writeOutboxEvents(tx: DbOrTx, events: DomainEvent[]): Promise<void> {
  await writeEvents(tx, [JSON.stringify(events.map(toRow)), notifyPayload(events)]);
}

/** The largest event id: a cursor at (txid, MAX_EVENT_ID) has passed every event of that transaction. */
const MAX_EVENT_ID = "9223372036854775807";
const MAX_EVENT_ID_LITERAL = `${MAX_EVENT_ID}::bigint`;

/**
 * The statements of a delivery round (each group runs one per burst of events: issue 20), of fixed texts, named,
 * so that each pooled connection plans them once and nothing rebuilds them per round. A round is BEGIN, `lock`,
 * `events`, then `moveTo` once its handler is done (not when it found nothing), and COMMIT.
 */
const round = {
  /**
   * The round commits without waiting for its WAL flush (see `dispatch`), if the group's lock ($1, $2) is free;
   * and the horizon. The horizon's snapshot is taken before the lock is: all it must do is come before the
   * snapshot that reads the events (below), and a kick heard after this statement was sent starts another round.
   */
  lock: namedQuery<{ locked: boolean; horizon: string }>(
    "outbox_round_lock",
    `select set_config('synchronous_commit', 'off', true), pg_try_advisory_xact_lock($1, hashtext($2)) as locked, h.txid as horizon
     from (${HORIZON}) h`,
  ),
  /**
   * The group's cursor ($1) and its events after it below the horizon ($2), of its types ($3, null = every type), at
   * most $4, in order; one row with null event fields when there are none, no row when the group has no cursor
   * yet. Read with a snapshot taken once the lock is held, so the cursor is the last holder's. When there are no
   * events, the same statement also tells whether some wait at or above the horizon (their writers still run), and
   * moves a group that reads only some types past the others up to the horizon (a data-modifying WITH runs
   * whether or not it is read): an empty round is one statement besides its lock. The cursor is compared through
   * scalar subqueries and the waiting check takes the first event in index order: with the cursor joined, or with
   * EXISTS, the generic plan (a named statement's after five runs) scanned every event instead of the index.
   */
  events: namedQuery<CursorEventRow>(
    "outbox_round_events",
    `with c as (select txid, event_id from outbox_cursors where consumer = $1),
     e as (
       select x.id, x.txid, x.company_id, x.type, x.payload from outbox_events x
       where (x.txid, x.id) > ((select txid from c), (select event_id from c)) and x.txid < $2::bigint
         and ($3::text[] is null or x.type = any($3::text[]))
       order by x.txid, x.id limit $4
     ),
     w as (
       select (
         select 1 from outbox_events x
         where (x.txid, x.id) > ((select txid from c), (select event_id from c)) and x.txid >= $2::bigint
           and ($3::text[] is null or x.type = any($3::text[]))
         order by x.txid, x.id limit 1
       ) is not null as waiting
       where not exists (select 1 from e)
     ),
     skipped as (
       update outbox_cursors set txid = $2::bigint - 1, event_id = ${MAX_EVENT_ID_LITERAL}, updated_at = now()
       where consumer = $1 and $3::text[] is not null and txid < $2::bigint - 1 and not exists (select 1 from e)
     )
     select c.txid as cursor_txid, c.event_id as cursor_event_id, e.*, (select waiting from w) as waiting
     from c left join e on true
     order by e.txid, e.id`,
  ),
  moveTo: namedQuery(
    "outbox_round_move",
    "update outbox_cursors set txid = $2::bigint, event_id = $3::bigint, updated_at = now() where consumer = $1",
  ),
};

/**
 * Whether an event follows cursor `c` (a row of outbox_cursors): the first one in index order. Written with EXISTS,
 * PostgreSQL planned a sequential scan that read the whole table whenever none did (see `poll`).
 */
const EVENT_AFTER_CURSOR = sql.raw(
  "(select 1 from outbox_events e where (e.txid, e.id) > (c.txid, c.event_id) order by e.txid, e.id limit 1) is not null",
);

/** First half of the advisory lock key of a group's dispatch (the second is the group name's hash). */
const LOCK_NAMESPACE = 7_243_100;
/** A poison event is skipped (and logged) after this many failed deliveries, so its group moves on. */
const MAX_ATTEMPTS = 5;

export interface EventBusOptions {
  pollMs: number;
}

export class EventBus {
  private readonly groups = new Map<string, Group>();
  private writes: Promise<unknown> = Promise.resolve();
  private unlisten: (() => void)[] = [];
  private pollTimer?: NodeJS.Timeout;
  private started = false;
  private stopped = false;
  private readonly attempts = new Map<string, number>();
  private readonly watchers = new Set<EventWatcher>();

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
    private readonly notifications: Notifications,
    private readonly options: EventBusOptions = { pollMs: 1_000 },
  ) {}

  /** Writes events in the transaction that makes the change; they are delivered after it commits. */
  async record(tx: DbOrTx, ...events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    this.tellWatchers("written", events);
    // NOTIFY is transactional: other processes hear it only if and when this transaction commits. Its payload
    // names the companies and types (each once), so every process's watchers (read caches) hear of the change.
    // The write and the NOTIFY are one statement (issue 20: every event write is on a hot path), of one text for any
    // number of events; a data-modifying WITH runs whether or not the outer query reads it.
    await writeOutboxEvents(tx, events);
  }

  /** Writes events on their own (code without a transaction) and starts delivering them. In call order. */
  publish(...events: DomainEvent[]): void {
    if (events.length === 0) return;
    // The change they tell of is committed already: this process's watchers hear of it before the caller
    // answers (the outbox write below runs later).
    this.tellWatchers("written", events);
    const write = this.writes.then(async () => {
      await this.record(this.database.db, ...events);
      this.kick(events.map((e) => e.type));
    });
    this.writes = write.catch((err) => this.log.error({ err, types: events.map((e) => e.type) }, "outbox: could not write events"));
  }

  /**
   * Calls `watcher` with the company and type of every event written in this process, and of every event
   * whose commit this process hears (any process's, through LISTEN/NOTIFY; once started). For read caches:
   * no query, no cursor, every process hears every commit. Returns a function that stops watching.
   */
  watch(watcher: EventWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private tellWatchers(phase: WrittenEvents["phase"], events: { companyId: number; type: string }[] | null): void {
    for (const watcher of this.watchers) {
      try {
        watcher({ phase, events });
      } catch (err) {
        this.log.error({ err }, "outbox: event watcher failed");
      }
    }
  }

  /** Subscribes a consumer group; returns a function that unsubscribes it (in this process). */
  subscribe(group: string, handler: DomainEventHandler, options: SubscribeOptions = {}): () => void {
    if (this.groups.has(group)) throw new Error(`outbox consumer group ${group} subscribed twice`);
    this.groups.set(group, {
      name: group,
      handler,
      options,
      types: options.types ? new Set(options.types) : null,
      again: false,
      failures: 0,
      lastRoundAt: 0,
    });
    if (this.started) this.kick();
    return () => {
      const g = this.groups.get(group);
      if (g?.retryTimer) clearTimeout(g.retryTimer);
      this.groups.delete(group);
    };
  }

  /** Starts listening for other processes' events and the fallback poll. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // Whatever was committed while the connection was down is delivered once it is back.
    this.unlisten = [
      this.notifications.on(CHANNEL, (payload) => {
        const written = parsePayload(payload);
        this.tellWatchers("committed", written);
        this.kick(written?.map((e) => e.type));
      }),
      this.notifications.onReconnect(() => {
        // Notifications sent while the connection was down are gone: watchers must assume anything changed.
        this.tellWatchers("committed", null);
        this.kick();
      }),
    ];
    await this.notifications.start();
    this.pollTimer = setInterval(() => void this.poll(), this.options.pollMs);
    this.pollTimer.unref();
    // The first round creates missing cursors: a new group starts from the events that exist now.
    await Promise.allSettled([...this.groups.values()].map((g) => this.run(g)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    for (const g of this.groups.values()) if (g.retryTimer) clearTimeout(g.retryTimer);
    await this.writes.catch(() => undefined);
    await Promise.allSettled([...this.groups.values()].map((g) => g.running));
    for (const stop of this.unlisten) stop();
  }

  /** Delivers everything written so far to this process's groups (tests, graceful shutdown). */
  async drain(): Promise<void> {
    await this.writes.catch(() => undefined);
    for (let round = 0; round < 100; round++) {
      let pending = false;
      for (const group of this.groups.values()) {
        await group.running;
        if (await this.hasPending(group.name)) {
          pending = true;
          await this.run(group, true);
        }
      }
      if (!pending) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /**
   * Asks the groups of this process to deliver what is pending: those that handle one of `types` (the types
   * a commit wrote), or every group when not given.
   */
  kick(types?: Iterable<string> | null): void {
    if (this.stopped) return;
    const written = types ? new Set(types) : null;
    for (const group of this.groups.values())
      if (!written || !group.types || [...written].some((type) => group.types!.has(type))) void this.run(group);
  }

  /**
   * The fallback for a lost notification: one statement finds the groups whose cursor some event has passed
   * (or that have no cursor yet), and only those run a round. With EXISTS in place of `EVENT_AFTER_CURSOR`,
   * PostgreSQL scanned the whole table for each group that had nothing waiting (620 ms of its CPU a poll, every
   * second, at 200k events and 9 groups; 0.1 ms now).
   */
  private async poll(): Promise<void> {
    if (this.stopped || this.groups.size === 0) return;
    try {
      const behind = await rows<{ name: string }>(
        this.database.db,
        sql`select g.name from unnest(${sql.param([...this.groups.keys()])}::text[]) g(name)
            left join outbox_cursors c on c.consumer = g.name
            where c.consumer is null
               or ${EVENT_AFTER_CURSOR}`,
      );
      for (const { name } of behind) {
        const group = this.groups.get(name);
        if (group && !this.stopped) void this.run(group);
      }
    } catch (err) {
      this.log.warn({ err }, "outbox: poll failed");
    }
  }

  /** Starts a round unless one runs (then another follows it) or the group's pace says later (`now`: drain). */
  private run(group: Group, now = false): Promise<void> {
    if (group.running) {
      group.again = true;
      return group.running;
    }
    const wait = group.lastRoundAt + (group.options.paceMs ?? 0) - Date.now();
    if (wait > 0 && !now) {
      this.retryLater(group, wait);
      return Promise.resolve();
    }
    group.lastRoundAt = Date.now();
    group.again = false;
    group.running = this.dispatch(group)
      .then((more) => {
        group.failures = 0;
        if (more) group.again = true;
      })
      .catch((err) => {
        group.failures++;
        this.log.error({ err, group: group.name }, "outbox: delivery round failed");
        this.retryLater(group, Math.min(30_000, 100 * 2 ** group.failures));
      })
      .finally(() => {
        group.running = undefined;
        if (group.again && !this.stopped && this.groups.get(group.name) === group) void this.run(group);
      });
    return group.running;
  }

  private retryLater(group: Group, ms: number): void {
    if (group.retryTimer || this.stopped) return;
    group.retryTimer = setTimeout(() => {
      group.retryTimer = undefined;
      void this.run(group);
    }, ms);
    group.retryTimer.unref();
  }

  /**
   * One delivery round for a group: lock it (skip if another process holds it), read a batch after its
   * cursor, hand the events to the handler, move the cursor. Returns whether more may be waiting.
   */
  private async dispatch(group: Group): Promise<boolean> {
    const batchSize = group.options.batchSize ?? 200;
    let heldBack = false;
    const more = await this.database.db.transaction(async (tx) => {
      // A kick heard from here on may tell of a commit this round does not see; one heard before is covered: it
      // follows its transaction's commit (NOTIFY reaches listeners once the writer's transaction has ended, and
      // publish kicks after its write returned), so the horizon read next is past that transaction, or this round
      // holds its events back and retries. Without this, every event kicked during a round cost an empty round
      // after it (issue 26: one round in six of the server suite's).
      const kickedBefore = group.again;
      group.again = false;
      // The lock and the horizon in one round trip, the cursor and the events in the next (issue 20: every group
      // runs a round per burst of events). The horizon comes before the events, in its own statement: the events
      // are then read with a later snapshot, so a writer that committed before the horizon was taken is seen, and
      // one still running is held back.
      // A round commits only a cursor, without waiting for its WAL flush (synchronous_commit off, this
      // transaction only): a cursor lost in a crash redelivers its events, which handlers take idempotently
      // (eventId), and the rounds stop queueing their flushes behind the commits of the changes themselves.
      const [locked] = await round.lock(tx, [LOCK_NAMESPACE, group.name]);
      if (!locked?.locked) {
        group.again ||= kickedBefore;
        return false;
      }
      const horizon = locked.horizon;
      const types = group.types ? [...group.types] : null;
      const read = () => round.events(tx, [group.name, horizon, types, batchSize]);
      let rows = await read();
      if (rows.length === 0) {
        // A new group starts from the events that exist now; a missing cursor is created only when there is none.
        await tx.execute(sql`
          insert into outbox_cursors (consumer, txid, event_id)
          select ${group.name}, coalesce(max(txid), 0), coalesce(max(id), 0) from outbox_events
          on conflict (consumer) do nothing`);
        rows = await read();
      }
      const [first] = rows;
      if (!first) return false;
      if (first.id === null) {
        // No events: the statement told whether some are held back, and moved a group of some types past the others.
        heldBack = first.waiting === true;
        return false;
      }
      const events = rows as (CursorEventRow & EventRow)[];
      // Every event below the horizon is final, and a batch that is not full holds every one the group handles
      // there: a group that reads only some types moves past the others up to the horizon, so they are not
      // scanned again.
      const skipTo =
        group.types && BigInt(horizon) - 1n > BigInt(first.cursor_txid) ? { txid: String(BigInt(horizon) - 1n), event_id: MAX_EVENT_ID } : null;
      const delivered = await this.deliver(group, events);
      const last = events[delivered - 1];
      const to = last && (delivered === events.length && events.length < batchSize && skipTo ? skipTo : { txid: last.txid, event_id: last.id });
      if (to) await round.moveTo(tx, [group.name, to.txid, to.event_id]);
      return delivered === batchSize;
    });
    // Events of transactions that committed after an older one still running: look again shortly.
    if (heldBack) this.retryLater(group, 10);
    return more;
  }

  /** Hands a batch to the group's handler; returns how many events (from the start) are done. */
  private async deliver(group: Group, events: EventRow[]): Promise<number> {
    const delivered = events.map((row) => ({ ...row.payload, type: row.type, companyId: row.company_id, eventId: row.id }) as DeliveredEvent);
    const handle = async (event: DeliveredEvent): Promise<void> => {
      try {
        await group.handler(event);
        this.attempts.delete(`${group.name}:${event.eventId}`);
      } catch (err) {
        const key = `${group.name}:${event.eventId}`;
        const attempts = (this.attempts.get(key) ?? 0) + 1;
        this.attempts.set(key, attempts);
        if (attempts < MAX_ATTEMPTS) throw err;
        this.attempts.delete(key);
        this.log.error({ err, group: group.name, eventId: event.eventId, type: event.type }, "outbox: event skipped after repeated failures");
      }
    };
    const keyOf = group.options.key;
    if (!keyOf) {
      for (let i = 0; i < delivered.length; i++) {
        try {
          await handle(delivered[i]!);
        } catch (err) {
          if (i === 0) throw err;
          this.log.warn({ err, group: group.name }, "outbox: handler failed; retrying from this event");
          return i;
        }
      }
      return delivered.length;
    }
    // Per key in order, keys concurrently; the cursor moves only past a batch that fully succeeded.
    const chains = new Map<string | number, Promise<void>>();
    for (const event of delivered) {
      const key = keyOf(event) ?? "";
      chains.set(
        key,
        (chains.get(key) ?? Promise.resolve()).then(() => handle(event)),
      );
    }
    await Promise.all(chains.values());
    return delivered.length;
  }

  private async hasPending(group: string): Promise<boolean> {
    const found = await rows(
      this.database.db,
      sql`select 1 from outbox_cursors c
          where c.consumer = ${group}
            and ${EVENT_AFTER_CURSOR}`,
    );
    if (found.length > 0) return true;
    // A group without a cursor yet gets one by running, so a drain also fixes where a new group starts.
    const cursor = await rows(this.database.db, sql`select 1 from outbox_cursors where consumer = ${group}`);
    return cursor.length === 0;
  }
}

/** "companyId:type" of each distinct pair, comma-separated; "*" when too long. */
function notifyPayload(events: DomainEvent[]): string {
  const payload = [...new Set(events.map((e) => `${e.companyId}:${e.type}`))].join(",");
  return payload.length > MAX_PAYLOAD ? "*" : payload;
}

/** The pairs of a payload; null (anything) for "*" or a payload of another writer (e.g. an older process: ""). */
function parsePayload(payload: string): { companyId: number; type: string }[] | null {
  if (!payload || payload === "*") return null;
  const out: { companyId: number; type: string }[] = [];
  for (const pair of payload.split(",")) {
    const at = pair.indexOf(":");
    const companyId = Number(pair.slice(0, at));
    if (at < 1 || !Number.isInteger(companyId)) return null;
    out.push({ companyId, type: pair.slice(at + 1) });
  }
  return out;
}

function toRow(event: DomainEvent) {
  const { type, companyId, ...payload } = event as DomainEvent & Record<string, unknown>;
  return { type, companyId, payload };
}

async function rows<T = Record<string, unknown>>(q: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
