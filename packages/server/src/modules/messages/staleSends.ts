/**
 * Replies a dead process left pending. A process killed between storing an attendant's reply as pending and
 * recording WhatsApp's answer leaves the row pending forever: nobody else would send it (sending it again
 * could send it twice — WhatsApp may already have it). The process that now runs the connection marks such
 * rows failed once they are older than PENDING_SEND_STALE_MS, so the attendant sees them and can retry;
 * none is lost and none is sent twice by the server. Campaign and scheduled messages are left to their own
 * recovery (campaigns/dispatcher.ts, schedules/sender.ts), which knows whether to try again.
 */
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { connections, messages, tickets } from "../../db/schema";
import { presentMessagesById } from "./presenter";

export async function sweepStaleSends(ctx: AppContext): Promise<number> {
  const local = ctx.channels.localConnectionIds();
  if (local.length === 0) return 0;
  const db = ctx.database.db;
  const stale = await db
    .update(messages)
    // Settled: a queue run's claim ("sending") left by the dead process goes with it (sendQueue.ts).
    .set({ status: "failed", dataJson: sql`${messages.dataJson} - 'queued' - 'voice'`, updatedAt: new Date() })
    .where(
      and(
        sql`${messages.companyId} in (select ${connections.companyId} from ${connections} where ${inArray(connections.id, local)})`,
        inArray(messages.connectionId, local),
        eq(messages.status, "pending"),
        eq(messages.fromMe, true),
        lt(messages.updatedAt, new Date(Date.now() - ctx.config.pendingSendStaleMs)),
        sql`coalesce(${messages.idempotencyKey}, '') not like 'campaign:%'`,
        sql`coalesce(${messages.idempotencyKey}, '') not like 'schedule:%'`,
        // Waiting for the connection on purpose (sendQueue.ts), not left behind.
        sql`coalesce(${messages.dataJson}->>'queued', '') <> 'waiting'`,
      ),
    )
    .returning({ id: messages.id, companyId: messages.companyId, ticketId: messages.ticketId });
  for (const row of stale) {
    const [dto] = await presentMessagesById(db, [row.id]);
    const [t] = await db
      .select({ userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
      .from(tickets)
      .where(and(eq(tickets.companyId, row.companyId), eq(tickets.id, row.ticketId)));
    if (dto && t) ctx.events.publish({ type: "messages.updated", companyId: row.companyId, message: dto, scope: t });
  }
  if (stale.length) ctx.log.warn({ messages: stale.map((r) => r.id) }, "replies left pending by a stopped process marked failed");
  return stale.length;
}

/** Runs the sweep every half threshold (at most every 30 s); returns the teardown. */
export function startStaleSendSweep(ctx: AppContext): () => void {
  const every = Math.max(500, Math.min(30_000, Math.floor(ctx.config.pendingSendStaleMs / 2)));
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepStaleSends(ctx)
      .catch((err) => ctx.log.error({ err }, "stale send sweep failed"))
      .finally(() => (running = false));
  }, every);
  timer.unref?.();
  return () => clearInterval(timer);
}
