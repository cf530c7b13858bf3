import type pg from "pg";

/**
 * A PostgreSQL restart (or `pg_terminate_backend`, a failover, an idle timeout) ends every connection with
 * "terminating connection due to administrator command". A pg client checked out of the pool has no
 * 'error' listener of the pool's, and Node kills the process on an 'error' event nobody listens to
 * (issue 11: the whole server exited). The Socket.IO adapter keeps one client checked out for LISTEN and
 * listens only for 'end' (after which it reconnects and re-LISTENs on its own); this pool view gives every
 * client it hands out an 'error' listener, and returns the dead client's slot to the pool when it ends.
 */
export function listenerSafePool(pool: pg.Pool, onError: (err: Error) => void): pg.Pool {
  return new Proxy(pool, {
    get(target, property) {
      if (property === "connect") {
        return async () => {
          const client = await target.connect();
          client.on("error", onError);
          client.once("end", () => {
            try {
              // Destroys the ended client instead of keeping it counted as checked out forever.
              client.release(new Error("connection ended"));
            } catch {
              // Already released (the adapter closed it first).
            }
          });
          return client;
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Makes the main pool survive connections the server ends (restart, `pg_terminate_backend`, failover):
 * - every client gets an 'error' listener, so an error on a client in use (no pool listener is attached
 *   then) cannot kill the process;
 * - a client whose connection ends while checked out is given back to the pool at once, since its holder
 *   may never do it (drizzle's transaction() does not release the client when its BEGIN fails), which
 *   would shrink the pool by one client per outage until it is exhausted; the holder's own later
 *   release() becomes a no-op.
 */
export function guardPool(pool: pg.Pool): void {
  const inUse = new WeakSet<pg.PoolClient>();
  pool.on("acquire", (client) => inUse.add(client));
  pool.on("release", (_err, client) => inUse.delete(client));
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
    client.once("end", () => {
      if (!inUse.has(client)) return;
      const release = client.release;
      client.release = () => undefined;
      release.call(client, new Error("connection ended while in use"));
    });
  });
}
