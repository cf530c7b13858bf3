/**
 * Timed queue transfer (spec §3 connection fields `timeSendQueue` minutes → `sendIdQueue`): a ticket that is
 * still waiting without a queue that long after it started waiting moves to the connection's queue.
 *
 * The first real consumer of the outbox and the job runner: the "queueTransfer" group sees every
 * `tickets.updated`; a waiting, queue-less ticket on such a connection gets one delayed job (keyed by the
 * ticket, so later updates while it waits add nothing). The job moves the ticket only if it is still
 * waiting without a queue and unassigned — an answer from the bot, an attendant or a transfer meanwhile
 * wins — so running it twice changes nothing.
 */
import { and, eq, isNull } from "drizzle-orm";
import { readCache } from "../../cache/readCache";
import type { AppContext } from "../../context";
import { connections, queues, tickets } from "../../db/schema";
import { BACKGROUND_PACE_MS, type DeliveredEvent } from "../../events/bus";
import { cycles } from "./cycles";
import { presentTicketById } from "./presenter";

export const QUEUE_TRANSFER_JOB = "tickets.queueTransfer";

interface QueueTransferPayload {
  companyId: number;
  ticketId: number;
  connectionId: number;
}

export function registerQueueTransfer(ctx: AppContext): () => void {
  ctx.jobs.register<QueueTransferPayload>(QUEUE_TRANSFER_JOB, (job) => transferIfStillWaiting(ctx, job.payload), { retryLimit: 5 });
  return ctx.events.subscribe("queueTransfer", (event) => scheduleTransfer(ctx, event), {
    types: ["tickets.updated"],
    // The transfer it schedules is minutes away.
    paceMs: BACKGROUND_PACE_MS,
  });
}

async function scheduleTransfer(ctx: AppContext, event: DeliveredEvent): Promise<void> {
  if (event.type !== "tickets.updated") return;
  const t = event.ticket;
  if (t.status !== "pending" || t.queueId !== null || t.userId !== null || t.whatsappId === null || t.isGroup) return;
  // Every change of a waiting ticket comes here; the connection's setting is read through the cache.
  const connection = await readCache(ctx).queueTransfer(event.companyId, t.whatsappId);
  if (!connection || connection.timeSendQueue <= 0 || connection.sendIdQueue <= 0) return;
  await ctx.jobs.enqueue(
    QUEUE_TRANSFER_JOB,
    { companyId: event.companyId, ticketId: t.id, connectionId: t.whatsappId } satisfies QueueTransferPayload,
    { runAt: new Date(Date.now() + connection.timeSendQueue * 60_000), key: `ticket:${t.id}` },
  );
}

async function transferIfStillWaiting(ctx: AppContext, job: QueueTransferPayload): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const [connection] = await tx
      .select({ sendIdQueue: connections.sendIdQueue, timeSendQueue: connections.timeSendQueue })
      .from(connections)
      .where(and(eq(connections.companyId, job.companyId), eq(connections.id, job.connectionId)));
    // Turned off or pointed at a queue that no longer exists since the job was scheduled: nothing to do.
    if (!connection || connection.timeSendQueue <= 0 || connection.sendIdQueue <= 0) return;
    const [queue] = await tx
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.companyId, job.companyId), eq(queues.id, connection.sendIdQueue)));
    if (!queue) return;
    const [moved] = await tx
      .update(tickets)
      .set({ queueId: queue.id, chatbot: false, queueOptionId: null, updatedAt: new Date() })
      .where(
        and(
          eq(tickets.companyId, job.companyId),
          eq(tickets.id, job.ticketId),
          eq(tickets.connectionId, job.connectionId),
          eq(tickets.status, "pending"),
          isNull(tickets.queueId),
          isNull(tickets.userId),
        ),
      )
      .returning();
    if (!moved) return;
    await cycles.queued(tx, moved);
    const dto = await presentTicketById(tx, job.companyId, moved.id);
    if (dto)
      await ctx.events.record(tx, {
        type: "tickets.updated",
        companyId: job.companyId,
        ticket: dto,
        previous: { userId: null, queueId: null, status: "pending" },
      });
  });
}
