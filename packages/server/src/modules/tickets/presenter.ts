import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { TicketDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { connections, contacts, queues, tags, tickets, ticketTags, users } from "../../db/schema";
import { forCompany } from "../../db/tenant";

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

export function selectTickets(db: DbOrTx) {
  return db
    .select(ticketSelection)
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(connections, eq(connections.id, tickets.connectionId));
}

export type TicketRow = Awaited<ReturnType<ReturnType<typeof selectTickets>["execute"]>>[number];

/** Builds DTOs for a page of rows; tags come in one extra query for the whole page. */
export async function presentTickets(db: DbOrTx, rows: TicketRow[]): Promise<TicketDTO[]> {
  if (rows.length === 0) return [];
  const tagRows = await db
    .select({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name, color: tags.color })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    // A page belongs to one company; the company filter keeps this child lookup scoped like its parents.
    .where(
      and(
        forCompany(ticketTags, rows[0]!.ticket.companyId),
        inArray(
          ticketTags.ticketId,
          rows.map((r) => r.ticket.id),
        ),
      ),
    )
    .orderBy(asc(tags.name));
  const tagsByTicket = new Map<number, TicketDTO["tags"]>();
  for (const t of tagRows) {
    const list = tagsByTicket.get(t.ticketId) ?? [];
    list.push({ id: t.id, name: t.name, color: t.color });
    tagsByTicket.set(t.ticketId, list);
  }
  return rows.map((r) => presentRow(r, tagsByTicket.get(r.ticket.id) ?? []));
}

function presentRow(r: TicketRow, tagList: TicketDTO["tags"]): TicketDTO {
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
    tags: tagList,
    isGroup: t.isGroup,
    chatbot: t.chatbot,
    code: t.code,
    lastMessage: t.lastMessage,
    unreadMessages: t.unreadMessages,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** The ticket's tags as JSON, by name, in the ticket's own select (a one-ticket DTO costs one round trip). */
const tagsOfTicket = sql<TicketDTO["tags"]>`coalesce((
  select json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}, 'color', ${tags.color}) order by ${tags.name})
  from ${ticketTags} inner join ${tags} on ${tags.id} = ${ticketTags.tagId}
  where ${ticketTags.ticketId} = ${tickets.id} and ${ticketTags.companyId} = ${tickets.companyId}), '[]'::json)`;

/** Ticket rows with their tags, for one ticket at a time (`presentTicketRow` turns one into its DTO). */
export function selectTicketsWithTags(db: DbOrTx) {
  return db
    .select({ ...ticketSelection, tags: tagsOfTicket })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(connections, eq(connections.id, tickets.connectionId));
}

export type TicketRowWithTags = TicketRow & { tags: TicketDTO["tags"] };

export function presentTicketRow(row: TicketRowWithTags): TicketDTO {
  return presentRow(row, row.tags);
}

export async function presentTicketById(db: DbOrTx, companyId: number, id: number): Promise<TicketDTO | null> {
  const row = await ticketRowById(db, companyId, id);
  return row ? presentTicketRow(row) : null;
}

/** One ticket's row with its tags (what `presentTicketRow` needs), in one planned-once statement. */
export async function ticketRowById(db: DbOrTx, companyId: number, id: number): Promise<TicketRowWithTags | undefined> {
  const [row] = await selectTicketsWithTags(db)
    .where(and(eq(tickets.id, id), forCompany(tickets, companyId)))
    .limit(1)
    // Named: each pooled connection plans this five-table join once (every ticket change sends its DTO).
    .prepare("ticket_dto_by_id")
    .execute();
  return row;
}
