import { createAdapter, type PostgresAdapterOptions } from "@socket.io/postgres-adapter";
import type pg from "pg";
import type { Server } from "socket.io";

interface Broadcasting {
  broadcast(packet: unknown, opts: { flags?: Record<string, unknown> } & Record<string, unknown>): unknown;
  /** The other processes this adapter heard of (its heartbeats' bookkeeping, socket.io-adapter's ClusterAdapterWithHeartbeat). */
  nodesMap?: Map<string, number>;
}

/**
 * Socket.IO's PostgreSQL adapter, for server processes sharing DATABASE_URL: a room emit reaches the other
 * processes' sockets through a `pg_notify` on the pool. The adapter learns the other processes from their
 * heartbeats (one when it starts, then every 5 s; a process silent for 10 s is forgotten); while it knows of none,
 * an emit stays in this process and costs no statement (issue 20: two of the ~14 statements per inbound message on
 * a PostgreSQL server run by one process). A process announces itself when its adapter starts, before it listens
 * for sockets; this one hears of it within a notification's delay.
 */
export function clusterAdapter(pool: pg.Pool, options?: Partial<PostgresAdapterOptions>): NonNullable<Parameters<Server["adapter"]>[0]> {
  const Adapter = createAdapter(pool, options) as unknown as new (nsp: unknown) => Broadcasting;
  function localWhileAlone(nsp: unknown): Broadcasting {
    const adapter = new Adapter(nsp);
    const broadcast = adapter.broadcast.bind(adapter);
    adapter.broadcast = (packet, opts) =>
      // No bookkeeping (another version of the library): publish, as the adapter does.
      broadcast(packet, adapter.nodesMap?.size === 0 ? { ...opts, flags: { ...opts.flags, local: true } } : opts);
    return adapter;
  }
  // Socket.IO calls it with `new`, which returns the adapter built here.
  return localWhileAlone as unknown as NonNullable<Parameters<Server["adapter"]>[0]>;
}
