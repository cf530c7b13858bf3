/**
 * The statement counter (test/statementCount.ts) that issue 20's statement budgets rest on: a statement counts once,
 * whether it goes through the pool or on a held client, and even when the pool starts it later, from the callback
 * of the query that freed a client (outside the counted work's async context).
 */
import type pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { statementsOf } from "./statementCount";
import { createTestApp, type TestApp } from "./testApp";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it("counts a pool query once, a held client's queries each, and not the work's neighbours", async () => {
  const pool = t.ctx.database.pool;
  const counted = await statementsOf(t, async () => {
    await pool.query("select 1");
    const client = await pool.connect();
    try {
      await client.query("select 2");
      await client.query({ text: "select $1::int", values: [3] });
    } finally {
      client.release();
    }
  });
  expect(counted).toBe(3);
  // A query of other work running at the same time is not this work's.
  const neighbour = pool.query("select pg_sleep(0.05)");
  expect(await statementsOf(t, () => pool.query("select 4"))).toBe(1);
  await neighbour;
});

it("counts a pool query that waited for a client freed by other work", async () => {
  const pool = t.ctx.database.pool;
  const held: pg.PoolClient[] = [];
  // Every client the app is not using (its LISTEN connection holds one for good).
  const free = pool.options.max - (pool.totalCount - pool.idleCount);
  for (let i = 0; i < free; i++) held.push(await pool.connect());
  expect(pool.totalCount - pool.idleCount).toBe(pool.options.max);
  // Freed from a timer set outside the counted work: the waiting query starts in this timer's context.
  setTimeout(() => held.forEach((client) => client.release()), 50);
  expect(await statementsOf(t, () => pool.query("select 5"))).toBe(1);
});
