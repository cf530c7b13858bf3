import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { attendanceCycles, connections, tickets } from "../../db/schema";
import { cteFields, statement } from "../../db/statement";

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
const firstOfContact = (companyId: SQL | number, contactId: SQL) => sql<boolean>`not exists (
    select 1 from ${attendanceCycles} c join ${tickets} o on o.id = c.ticket_id
    where c.company_id = ${companyId} and o.company_id = ${companyId} and o.contact_id = ${contactId})`;
const firstOfTicketsContact = (t: CycleTicket) => firstOfContact(t.companyId, sql`(select contact_id from ${tickets} where id = ${t.id})`);

/**
 * A new pending ticket with its first cycle waiting in line, in one statement (issue 20: a new customer's first
 * message), as `insert` + `cycles.opened`, with its connection's name (what its DTO shows beside the contact in
 * hand). The cycle's lead test reads the ticket's contact from the inserted row: a statement does not see its
 * own inserts.
 */
export const insertPendingTicket = statement((tx) => {
  const value = (name: string) => sql.placeholder(name);
  const opened = tx.$with("opened_ticket").as(
    tx
      .insert(tickets)
      .values({
        companyId: value("companyId"),
        contactId: value("contactId"),
        connectionId: value("connectionId"),
        status: "pending",
        isGroup: value("isGroup"),
      })
      .returning(),
  );
  const cycle = tx.$with("opened_cycle", {}).as(
    sql`insert into ${attendanceCycles} (company_id, ticket_id, connection_id, queue_id, queued_at, first_of_contact)
      select t.company_id, t.id, t.connection_id, t.queue_id, ${value("queuedAt")}, ${firstOfContact(sql`t.company_id`, sql`t.contact_id`)}
      from opened_ticket t`,
  );
  return tx
    .with(opened, cycle)
    .select({
      ticket: cteFields(opened),
      connectionName: sql<string | null>`(select c.name from ${connections} c where c.id = opened_ticket.connection_id)`,
    })
    .from(opened)
    .prepare("insert_pending_ticket");
});

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
      firstOfContact: firstOfTicketsContact(t),
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
      firstOfContact: firstOfTicketsContact(t),
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
