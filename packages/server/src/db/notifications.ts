/**
 * PostgreSQL LISTEN/NOTIFY for the whole process on one dedicated connection: the outbox's wake-ups and the
 * send relay both listen here. The connection is re-made (and every channel LISTENed again) when the server
 * drops it — a restart, a failover, an administrator's terminate — and `onReconnect` handlers run then, so
 * whatever was notified while the process was deaf can be looked up.
 */
import pg from "pg";
import type { Logger } from "pino";
import { sql } from "drizzle-orm";
import type { Database, DbOrTx } from "./client";

type Handler = (payload: string) => void;

export class Notifications {
  private client?: pg.Client;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private stopped = false;
  private starting?: Promise<void>;

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
  ) {}

  /** Calls `handler` with each notification's payload on `channel` (a plain identifier). */
  on(channel: string, handler: Handler): () => void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      this.client?.query(`LISTEN ${channel}`).catch(() => undefined);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  onReconnect(handler: () => void): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  /** Sends a notification; inside a transaction it is delivered at commit, and not at all on rollback. */
  async notify(q: DbOrTx, channel: string, payload = ""): Promise<void> {
    await q.execute(sql`select pg_notify(${channel}, ${payload})`);
  }

  start(): Promise<void> {
    this.starting ??= this.connect();
    return this.starting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const pool = this.database.pool;
    if (!pool || this.stopped) return;
    const client = new pg.Client(pool.options);
    const lost = (reason: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.log.warn({ reason }, "notifications: connection lost; reconnecting");
      client.end().catch(() => undefined);
      this.reconnectLater(1_000);
    };
    client.on("notification", (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? "");
    });
    client.on("error", (err) => lost(err.message));
    client.on("end", () => lost("ended"));
    this.client = client;
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      throw err;
    }
  }

  private reconnectLater(delayMs: number): void {
    if (this.stopped) return;
    setTimeout(() => {
      this.connect()
        .then(() => {
          for (const handler of this.reconnectHandlers) handler();
        })
        .catch((err: Error) => {
          this.log.warn({ err: { message: err.message } }, "notifications: reconnect failed");
          this.reconnectLater(Math.min(delayMs * 2, 30_000));
        });
    }, delayMs).unref();
  }
}
