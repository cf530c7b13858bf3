import { and, eq, sql } from "drizzle-orm";
import type { TicketDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { connections, contacts, queues, tags, tickets, ticketTags, users } from "../../db/schema";
import { statement } from "../../db/statement";

/** Columns of one ticket row with its contact, user, queue and connection (one joined select). */
export const ticketSelection = {
  ticket: tickets,
  contact: {
    id: contacts.id,
    name: contacts.name,
    number: contacts.number,
    email: contacts.email,
    profilePicUrl: contacts.profilePicUrl,
    isGroup: contacts.isGroup,
  },
  userName: users.name,
  queueName: queues.name,
  queueColor: queues.color,
  connectionName: connections.name,
  // updated_at in microseconds (a JS Date keeps milliseconds only): the list's next-page cursor.
  cursorAt: sql<string>`(extract(epoch from ${tickets.updatedAt}) * 1000000)::bigint::text`,
};

export function presentTicketRow(r: TicketRowShown): TicketDTO {
  const t = r.ticket;
  return {
    id: t.id,
    uuid: t.uuid,
    status: t.status as TicketDTO["status"],
    userId: t.userId,
    user: t.userId !== null && r.userName !== null ? { id: t.userId, name: r.userName } : null,
    queueId: t.queueId,
    queue: t.queueId !== null && r.queueName !== null ? { id: t.queueId, name: r.queueName, color: r.queueColor ?? "" } : null,
    whatsappId: t.connectionId,
    whatsapp: t.connectionId !== null && r.connectionName !== null ? { id: t.connectionId, name: r.connectionName } : null,
    contactId: t.contactId,
    contact: r.contact,
    tags: r.tags,
    isGroup: t.isGroup,
    chatbot: t.chatbot,
    code: t.code,
    lastMessage: t.lastMessage,
    unreadMessages: t.unreadMessages,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/**
 * The ticket's tags as JSON, by name, in the ticket's own select: a DTO, or a page or board of them, costs one
 * round trip. Under ORDER BY ... LIMIT the planner evaluates this sub-select for the returned rows only.
 */
export const tagsOfTicket = sql<TicketDTO["tags"]>`coalesce((
  select json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}, 'color', ${tags.color}) order by ${tags.name}, ${tags.id})
  from ${ticketTags} inner join ${tags} on ${tags.id} = ${ticketTags.tagId}
  where ${ticketTags.ticketId} = ${tickets.id} and ${ticketTags.companyId} = ${tickets.companyId}), '[]'::json)`;

/** Ticket rows with their contact, user, queue, connection and tags (`presentTicketRow` turns one into its DTO). */
export function selectTicketsWithTags(db: DbOrTx) {
  return db
    .select({ ...ticketSelection, tags: tagsOfTicket })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(connections, eq(connections.id, tickets.connectionId));
}

export type TicketRowWithTags = Awaited<ReturnType<ReturnType<typeof selectTicketsWithTags>["execute"]>>[number];

/** A ticket's row with what its DTO shows (a list's cursor aside): what `presentTicketRow` needs. */
export type TicketRowShown = Omit<TicketRowWithTags, "cursorAt">;

/** The ticket DTO's contact, from a contact row in hand (the columns `ticketSelection.contact` reads). */
export function ticketContactOf(contact: typeof contacts.$inferSelect): TicketRowShown["contact"] {
  const { id, name, number, email, profilePicUrl, isGroup } = contact;
  return { id, name, number, email, profilePicUrl, isGroup };
}

export async function presentTicketById(db: DbOrTx, companyId: number, id: number): Promise<TicketDTO | null> {
  const row = await ticketRowById(db, companyId, id);
  return row ? presentTicketRow(row) : null;
}

/**
 * One ticket's row with its tags, built once with placeholders, so drizzle writes its SQL once, and named, so
 * each pooled connection plans this five-table join once (every ticket change sends its DTO).
 */
const ticketDtoById = statement((db) =>
  selectTicketsWithTags(db)
    .where(and(eq(tickets.id, sql.placeholder("id")), eq(tickets.companyId, sql.placeholder("companyId"))))
    .limit(1)
    .prepare("ticket_dto_by_id"),
);

/** One ticket's row with its tags (what `presentTicketRow` needs), in one planned-once statement. */
export async function ticketRowById(db: DbOrTx, companyId: number, id: number): Promise<TicketRowWithTags | undefined> {
  const [row] = await ticketDtoById(db).execute({ id, companyId });
  return row;
}
