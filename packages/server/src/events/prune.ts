/**
 * The outbox's retention. Every change writes its events to `outbox_events` (events/bus.ts), and nothing removed
 * them: each inbound message left about three rows carrying its ticket's and message's DTOs, so the table grew with
 * the product's whole history (a million messages, millions of rows), with its indexes and every scan of it.
 * An event goes once every consumer group has passed it and it is older than `keepMs` (an hour: what an operator
 * may want to look at after an incident); an event that some group has not passed stays until `stuckMs` (7 days) —
 * a group that far behind is gone (renamed or removed by an upgrade: its cursor row stays) or broken, and its log
 * says so.
 */
import { sql } from "drizzle-orm";
import type { AppContext } from "../context";
import type { DbOrTx } from "../db/client";

export interface OutboxRetention {
  keepMs: number;
  stuckMs: number;
  /** Rows deleted per statement: short transactions, and the table's other users are not held up. */
  batchSize: number;
  /** Statements per run at most (a first run on a large table goes on at the next one). */
  maxBatches: number;
}

export const OUTBOX_RETENTION: OutboxRetention = { keepMs: 60 * 60_000, stuckMs: 7 * 24 * 60 * 60_000, batchSize: 5_000, maxBatches: 200 };

/** Deletes what the retention allows, in batches; returns how many events went. */
export async function pruneOutbox(db: DbOrTx, retention: OutboxRetention = OUTBOX_RETENTION): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < retention.maxBatches; batch++) {
    // The lowest cursor: every group has passed the events at or below it. No cursor at all: nothing is waiting.
    const result = (await db.execute(sql`
      with lowest as (select txid, event_id from outbox_cursors order by txid, event_id limit 1),
      doomed as (
        select e.id from outbox_events e
        where e.created_at < now() - make_interval(secs => ${retention.keepMs / 1000})
          and (e.created_at < now() - make_interval(secs => ${retention.stuckMs / 1000})
               or not exists (select 1 from lowest)
               or (e.txid, e.id) <= ((select txid from lowest), (select event_id from lowest)))
        order by e.created_at
        limit ${retention.batchSize}
      )
      delete from outbox_events where id in (select id from doomed)`)) as unknown as { rowCount: number | null };
    const count = result.rowCount ?? 0;
    deleted += count;
    if (count < retention.batchSize) break;
  }
  return deleted;
}

/** Every 10 minutes, in one process at a time (the job runner). */
export function startOutboxPruning(ctx: AppContext): void {
  ctx.jobs.every("outbox.prune", "*/10 * * * *", async () => {
    const pruned = await pruneOutbox(ctx.database.db);
    if (pruned) ctx.log.info({ pruned }, "outbox: delivered events pruned");
  });
}
