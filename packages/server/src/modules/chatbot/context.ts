import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { statement } from "../../db/statement";
import { companies, connections, contacts, queues, settings, tickets, users } from "../../db/schema";
import { templateVariables } from "./templates";

/** Company settings by key (missing keys are absent). */
export async function loadSettings(db: DbOrTx, companyId: number, keys: string[]): Promise<Record<string, string>> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), inArray(settings.key, keys)));
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/**
 * One ticket with what its automatic messages need, in one joined query: contact, company clock,
 * attendant, queue (with its fallback messages) and connection messages. Built once and named (it runs on every
 * customer message): drizzle writes its SQL once, and each pooled connection plans this six-table join once.
 */
const ticketContext = statement((db) =>
  db
    .select({
      ticket: tickets,
      contactName: contacts.name,
      contactNumber: contacts.number,
      timeZone: companies.timeZone,
      userName: users.name,
      queue: {
        id: queues.id,
        name: queues.name,
        greetingMessage: queues.greetingMessage,
        outOfHoursMessage: queues.outOfHoursMessage,
        complationMessage: queues.complationMessage,
        ratingMessage: queues.ratingMessage,
        schedules: queues.schedules,
      },
      connection: {
        id: connections.id,
        greetingMessage: connections.greetingMessage,
        outOfHoursMessage: connections.outOfHoursMessage,
        complationMessage: connections.complationMessage,
        ratingMessage: connections.ratingMessage,
      },
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(connections, eq(connections.id, tickets.connectionId))
    .where(and(eq(tickets.id, sql.placeholder("ticketId")), eq(tickets.companyId, sql.placeholder("companyId"))))
    .limit(1)
    .prepare("chatbot_ticket_context"),
);

export async function loadTicketContext(db: DbOrTx, companyId: number, ticketId: number) {
  const [row] = await ticketContext(db).execute({ companyId, ticketId });
  return row ?? null;
}

export type TicketContext = NonNullable<Awaited<ReturnType<typeof loadTicketContext>>>;

export function variablesOf(c: TicketContext, at: Date, overrides: { queueName?: string | null; userName?: string | null } = {}) {
  return templateVariables({
    contactName: c.contactName,
    contactNumber: c.contactNumber,
    userName: overrides.userName !== undefined ? overrides.userName : c.userName,
    queueName: overrides.queueName !== undefined ? overrides.queueName : (c.queue?.name ?? null),
    ticketId: c.ticket.id,
    at,
    timeZone: c.timeZone,
  });
}
