import { and, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { attendanceCycles, tickets } from "../../db/schema";

/**
 * One row per attendance cycle feeds the dashboard and ratings (DESIGN §5). Each ticket transition
 * stamps the cycle in progress; closing finishes it and the next start opens a new one.
 */
interface CycleTicket {
  id: number;
  companyId: number;
  connectionId: number | null;
  queueId: number | null;
}

/** The contact's first cycle ever is a lead (dashboard); deciding it at insert keeps the count an index range. */
const firstOfContact = (t: CycleTicket) => sql<boolean>`not exists (
    select 1 from ${attendanceCycles} c join ${tickets} o on o.id = c.ticket_id
    where c.company_id = ${t.companyId} and o.company_id = ${t.companyId}
      and o.contact_id = (select contact_id from ${tickets} where id = ${t.id}))`;

/**
 * The cycle in progress, else a new one. `queued` says whether the new cycle starts by waiting in line:
 * one an attendant opens (new ticket from the app, reopen) never waited, so it has no queue time and
 * stays out of the average wait.
 */
async function openCycle(tx: Tx, t: CycleTicket, queued = true) {
  const [cycle] = await tx
    .select()
    .from(attendanceCycles)
    .where(and(eq(attendanceCycles.companyId, t.companyId), eq(attendanceCycles.ticketId, t.id), isNull(attendanceCycles.finishedAt)))
    .limit(1);
  if (cycle) return cycle;
  const [created] = await tx
    .insert(attendanceCycles)
    .values({
      companyId: t.companyId,
      ticketId: t.id,
      connectionId: t.connectionId,
      queueId: t.queueId,
      queuedAt: queued ? new Date() : null,
      firstOfContact: firstOfContact(t),
    })
    .returning();
  return created!;
}

type CyclePatch = Partial<Pick<typeof attendanceCycles.$inferInsert, "queuedAt" | "startedAt" | "userId" | "queueId" | "chatbotAt" | "ratingAt">>;

async function patch(tx: Tx, t: CycleTicket, values: CyclePatch & { finishedAt?: Date; rated?: boolean }) {
  const cycle = await openCycle(tx, t);
  await tx
    .update(attendanceCycles)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(attendanceCycles.id, cycle.id));
}

export const cycles = {
  /**
   * A ticket created in this transaction starts waiting in line: its first cycle, written at once (one
   * statement; `queued` would look for a cycle in progress first and then stamp it).
   */
  opened: async (tx: Tx, t: CycleTicket) => {
    await tx.insert(attendanceCycles).values({
      companyId: t.companyId,
      ticketId: t.id,
      connectionId: t.connectionId,
      queueId: t.queueId,
      queuedAt: new Date(),
      firstOfContact: firstOfContact(t),
    });
  },
  /** A ticket waits for an attendant (new, returned, or transferred to a queue only). */
  queued: (tx: Tx, t: CycleTicket) => patch(tx, t, { queuedAt: new Date(), startedAt: null, userId: null, queueId: t.queueId }),
  /**
   * An attendant takes the ticket (accept, reopen, transfer to a person, new ticket by an attendant).
   * Handing a ticket in progress to another person keeps its start: the customer is served from the
   * first start to the finish, and the cycle is credited to whoever holds it at the end.
   */
  started: async (tx: Tx, t: CycleTicket, userId: number) => {
    const cycle = await openCycle(tx, t, false);
    await tx
      .update(attendanceCycles)
      .set({ startedAt: cycle.startedAt ?? new Date(), userId, queueId: t.queueId, updatedAt: new Date() })
      .where(eq(attendanceCycles.id, cycle.id));
  },
  finished: (tx: Tx, t: CycleTicket, userId: number | null) => patch(tx, t, { finishedAt: new Date(), ...(userId !== null && { userId }) }),
  chatbot: async (tx: Tx, t: CycleTicket) => {
    const cycle = await openCycle(tx, t);
    if (!cycle.chatbotAt) await tx.update(attendanceCycles).set({ chatbotAt: new Date() }).where(eq(attendanceCycles.id, cycle.id));
  },
};
