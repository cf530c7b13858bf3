/**
 * The outbox's retention (events/prune.ts): delivered events go once they are an hour old, an event some group has
 * not passed stays (until the group is a week behind), and the job is scheduled with the app.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/testApp";
import { writeOutboxEvents } from "./bus";
import { OUTBOX_RETENTION, pruneOutbox } from "./prune";

declare module "./bus" {
  interface DomainEvents {
    "test.pruned": { n: number };
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const query = async <R>(text: ReturnType<typeof sql>) => ((await t.ctx.database.db.execute(text)) as unknown as { rows: R[] }).rows;

/** Writes one event in its own transaction; returns its row's id and txid. */
async function write(n: number): Promise<{ id: string; txid: string }> {
  await t.ctx.database.db.transaction((tx) => writeOutboxEvents(tx, [{ type: "test.pruned", companyId: 1, n }]));
  const [row] = await query<{ id: string; txid: string }>(sql`select id::text, txid::text from outbox_events where payload->>'n' = ${String(n)}`);
  return row!;
}

const age = (id: string, interval: string) =>
  t.ctx.database.db.execute(sql`update outbox_events set created_at = now() - ${interval}::interval where id = ${id}::bigint`);
const left = async (ids: string[]) =>
  (await query<{ id: string }>(sql`select id::text from outbox_events where id = any(${sql.param(ids)}::bigint[]) order by id`)).map((r) => r.id);

describe("outbox retention", () => {
  it("deletes delivered events an hour old, keeps what a group has not passed until it is a week behind", async () => {
    const delivered = await write(1);
    const recent = await write(2);
    await t.ctx.events.drain();
    // A group that stopped after the first event (an old version's, say): it has not passed the next ones.
    await t.ctx.database.db.execute(
      sql`insert into outbox_cursors (consumer, txid, event_id) values ('prune-lagging', ${delivered.txid}::bigint, ${delivered.id}::bigint)`,
    );
    const undelivered = await write(3);
    await t.ctx.events.drain();
    await age(delivered.id, "2 hours");
    await age(undelivered.id, "2 hours");
    const ids = [delivered.id, recent.id, undelivered.id];

    expect(await pruneOutbox(t.ctx.database.db)).toBeGreaterThanOrEqual(1);
    // Passed by every group and old: gone. Recent: kept. Old but not passed by the lagging group: kept.
    expect(await left(ids)).toEqual([recent.id, undelivered.id]);

    await age(undelivered.id, "8 days");
    await pruneOutbox(t.ctx.database.db);
    expect(await left(ids)).toEqual([recent.id]);
  });

  it("goes on in batches until nothing old is left", async () => {
    await t.ctx.database.db.execute(sql`
      insert into outbox_events (company_id, type, payload, created_at)
      select 1, 'test.pruned', jsonb_build_object('n', g), now() - interval '3 hours' from generate_series(1000, 1024) g`);
    await t.ctx.database.db.execute(sql`delete from outbox_cursors where consumer = 'prune-lagging'`);
    await t.ctx.events.drain();
    expect(await pruneOutbox(t.ctx.database.db, { ...OUTBOX_RETENTION, batchSize: 10 })).toBe(25);
    const [old] = await query<{ n: number }>(sql`select count(*)::int as n from outbox_events where created_at < now() - interval '1 hour'`);
    expect(old!.n).toBe(0);
  });

  it("is a job of the app, run every 10 minutes", async () => {
    const [schedule] = await query<{ cron: string }>(sql`select cron from pgboss.schedule where name = 'outbox.prune'`);
    expect(schedule?.cron).toBe("*/10 * * * *");
  });
});
