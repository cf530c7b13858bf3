import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import type { TestApp } from "./testApp";

/**
 * Runs `work` and returns the statements it sent to PostgreSQL (BEGIN/COMMIT included): what a request or a
 * pipeline step costs the database, counted rather than timed (issue 20). Delivery rounds it kicks are not its own.
 */
export async function statementsOf(t: TestApp, work: () => Promise<unknown>): Promise<number> {
  const inside = new AsyncLocalStorage<true>();
  let count = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (inside.getStore()) count++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const events = t.ctx.events;
  const kick = events.kick;
  events.kick = () => inside.exit(() => kick.call(events));
  try {
    await inside.run(true, work);
  } finally {
    pg.Client.prototype.query = query;
    events.kick = kick;
  }
  return count;
}
