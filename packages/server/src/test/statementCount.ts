import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import type { TestApp } from "./testApp";

/**
 * Runs `work` and returns the statements it sent to PostgreSQL (BEGIN/COMMIT included): what a request or a
 * pipeline step costs the database, counted rather than timed (issue 20). Delivery rounds it kicks are not its own.
 *
 * A statement sent through the pool (`pool.query`) is counted when it is called: the pool hands it to a client
 * later, and when every client was busy (a loaded machine, the job runner polling) that happens in the callback of
 * whichever query freed one, outside `work`'s async context — such a statement went uncounted (2 instead of 3 in a
 * CI run on 2026-11-28). Statements on a client `work` holds (a transaction) are counted on the client.
 */
export async function statementsOf(t: TestApp, work: () => Promise<unknown>): Promise<number> {
  return (await statementTextsOf(t, work)).length;
}

/** The SQL text of a query's first argument (a string, a config, or a submittable query). */
const textOf = (config: unknown): string =>
  typeof config === "string" ? config : typeof config === "object" && config !== null ? String((config as { text?: unknown }).text ?? "") : "";

/** The statements `work` sent, as `statementsOf` counts them, by their SQL text (in the order they were sent). */
export async function statementTextsOf(t: TestApp, work: () => Promise<unknown>): Promise<string[]> {
  const inside = new AsyncLocalStorage<true>();
  const countedByPool = new WeakSet<object>();
  const texts: string[] = [];
  const clientQuery = pg.Client.prototype.query;
  const poolQuery = pg.Pool.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0];
    if (inside.getStore() && !(typeof config === "object" && config !== null && countedByPool.has(config))) texts.push(textOf(config));
    return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof clientQuery;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    if (inside.getStore()) {
      texts.push(textOf(args[0]));
      // The pool passes this config on to the client's query: marked, it is not counted twice there. A copy, so the
      // mark is this call's: drizzle's prepared statements reuse one config object for every execution.
      const [first] = args;
      const plain = typeof first === "object" && first !== null && typeof (first as { submit?: unknown }).submit !== "function";
      const config = typeof first === "string" ? { text: first } : plain ? { ...first } : first;
      if (typeof config === "object" && config !== null) countedByPool.add(config);
      args[0] = config;
    }
    return (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof poolQuery;
  const events = t.ctx.events;
  const kick = events.kick;
  events.kick = (types) => inside.exit(() => kick.call(events, types));
  try {
    await inside.run(true, work);
  } finally {
    pg.Client.prototype.query = clientQuery;
    pg.Pool.prototype.query = poolQuery;
    events.kick = kick;
  }
  return texts;
}
