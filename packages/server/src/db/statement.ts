import type { DbOrTx } from "./client";

/** What drizzle's `.prepare(name)` returns: a query built with placeholders, run by `execute(values)`. */
interface Prepared {
  execute(placeholderValues?: Record<string, unknown>): Promise<unknown>;
}

/** The pg client (pool, or a transaction's connection) a drizzle handle sends its queries through. */
function clientOf(handle: DbOrTx): unknown {
  return (handle._.session as unknown as { client: unknown }).client;
}

/**
 * A statement of the hot paths (issue 20), built once per process with placeholders and run on any handle: the
 * pool or a transaction. drizzle writes a query's SQL text anew each time one is built (its `is()` checks and
 * SQL assembly were ~28% of the inbound pipeline's CPU), and a prepared query is bound to the connection it was
 * built on; this builds it once and hands each handle a view of it that sends through that handle's connection
 * (drizzle's node-postgres prepared query reads its connection from `client`). `build` must use placeholders
 * (`sql.placeholder`) for every value that varies and name the statement (`.prepare(name)`), so that each pooled
 * connection also parses and plans it once.
 */
export function statement<Q extends Prepared>(build: (handle: DbOrTx) => Q): (handle: DbOrTx) => Q {
  let built: { query: Q; client: unknown } | undefined;
  return (handle) => {
    const client = clientOf(handle);
    if (!built) built = { query: build(handle), client };
    if (built.client === client) return built.query;
    return Object.create(built.query, { client: { value: client } }) as Q;
  };
}

/**
 * A statement of fixed SQL text, named, sent through a handle's connection (the pool, or a transaction's) by pg
 * itself: no drizzle building at all, for hot statements whose rows need no mapping (issue 20).
 */
export function namedQuery<R = Record<string, unknown>>(name: string, text: string) {
  const config = { name, text };
  return async (handle: DbOrTx, values: unknown[]): Promise<R[]> => {
    const client = clientOf(handle) as { query(config: { name: string; text: string }, values: unknown[]): Promise<{ rows: R[] }> };
    return (await client.query(config, values)).rows;
  };
}

/**
 * A WITH query's fields as a selection, each read through the query's alias (drizzle's proxy), e.g. to nest a
 * data-modifying WITH's returned row under one key beside other fields.
 */
export function cteFields<C extends { _: { selectedFields: Record<string, unknown> } }>(cte: C): C["_"]["selectedFields"] {
  const fields = cte as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.keys(cte._.selectedFields).map((key) => [key, fields[key]])) as C["_"]["selectedFields"];
}
