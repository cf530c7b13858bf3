import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { attendanceCycles } from "../../db/schema";

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

async function openCycle(tx: Tx, t: CycleTicket) {
  const [cycle] = await tx
    .select()
    .from(attendanceCycles)
    .where(and(eq(attendanceCycles.companyId, t.companyId), eq(attendanceCycles.ticketId, t.id), isNull(attendanceCycles.finishedAt)))
    .limit(1);
  if (cycle) return cycle;
  const [created] = await tx
    .insert(attendanceCycles)
    .values({ companyId: t.companyId, ticketId: t.id, connectionId: t.connectionId, queueId: t.queueId, queuedAt: new Date() })
    .returning();
  return created!;
}

type CyclePatch = Partial<Pick<typeof attendanceCycles.$inferInsert, "queuedAt" | "startedAt" | "userId" | "queueId" | "chatbotAt" | "ratingAt">>;

async function patch(tx: Tx, t: CycleTicket, values: CyclePatch & { finishedAt?: Date; rated?: boolean }) {
  const cycle = await openCycle(tx, t);
  await tx.update(attendanceCycles).set({ ...values, updatedAt: new Date() }).where(eq(attendanceCycles.id, cycle.id));
}

export const cycles = {
  /** A ticket waits for an attendant (new, returned, or transferred to a queue only). */
  queued: (tx: Tx, t: CycleTicket) => patch(tx, t, { queuedAt: new Date(), startedAt: null, userId: null, queueId: t.queueId }),
  /** An attendant takes the ticket (accept, reopen, transfer to a person, new ticket by an attendant). */
  started: (tx: Tx, t: CycleTicket, userId: number) => patch(tx, t, { startedAt: new Date(), userId, queueId: t.queueId }),
  finished: (tx: Tx, t: CycleTicket, userId: number | null) => patch(tx, t, { finishedAt: new Date(), ...(userId !== null && { userId }) }),
  chatbot: async (tx: Tx, t: CycleTicket) => {
    const cycle = await openCycle(tx, t);
    if (!cycle.chatbotAt) await tx.update(attendanceCycles).set({ chatbotAt: new Date() }).where(eq(attendanceCycles.id, cycle.id));
  },
};
