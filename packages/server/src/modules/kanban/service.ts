import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { isAdmin, KANBAN_MAX_TICKETS, KANBAN_PREVIEW_CHARS, laneOf, type KanbanResponse, type KanbanTicketDTO, type TicketDTO } from "@balcao/shared";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/client";
import { contacts, tags, tickets, ticketTags } from "../../db/schema";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { tagPolicy } from "../tags/policy";
import { presentTicketById, tagsOfTicket } from "../tickets/presenter";

export class KanbanService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  /**
   * The board's cards: pending and open tickets the caller may see (spec §6: a profile-user and a supervisor
   * only their queues', queue-less ones and their own), narrowed to `queueIds` (plus queue-less ones, like the
   * ticket lists). One query whatever the size: the tickets with their contact and tags.
   */
  async board(actor: Actor, queueIds: number[] | undefined): Promise<KanbanResponse> {
    const conditions: (SQL | undefined)[] = [eq(tickets.companyId, actor.companyId), inArray(tickets.status, ["pending", "open"])];
    if (!isAdmin(actor))
      conditions.push(
        or(eq(tickets.userId, actor.id), isNull(tickets.queueId), actor.queueIds.length ? inArray(tickets.queueId, actor.queueIds) : sql`false`),
      );
    if (queueIds?.length) conditions.push(or(inArray(tickets.queueId, queueIds), isNull(tickets.queueId)));
    const rows = await this.db
      .select({
        id: tickets.id,
        uuid: tickets.uuid,
        status: tickets.status,
        userId: tickets.userId,
        queueId: tickets.queueId,
        contactId: tickets.contactId,
        lastMessage: sql<string>`left(${tickets.lastMessage}, ${KANBAN_PREVIEW_CHARS})`,
        unreadMessages: tickets.unreadMessages,
        updatedAt: tickets.updatedAt,
        contact: { id: contacts.id, name: contacts.name, number: contacts.number },
        tags: tagsOfTicket,
      })
      .from(tickets)
      .innerJoin(contacts, and(eq(contacts.id, tickets.contactId), eq(contacts.companyId, actor.companyId)))
      .where(and(...conditions))
      .orderBy(desc(tickets.updatedAt), desc(tickets.id))
      .limit(KANBAN_MAX_TICKETS + 1);
    const page = rows.slice(0, KANBAN_MAX_TICKETS);
    return {
      tickets: page.map((r) => ({
        ...r,
        status: r.status as KanbanTicketDTO["status"],
        updatedAt: r.updatedAt.toISOString(),
      })),
      truncated: rows.length > KANBAN_MAX_TICKETS,
    };
  }

  /** The company's lanes (Kanban tags), in lane order: GET /tags/kanban's. */
  private async laneIds(tx: Tx, companyId: number): Promise<number[]> {
    const rows = await tx
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.companyId, companyId), eq(tags.kanban, 1)))
      .orderBy(asc(tags.id));
    return rows.map((r) => r.id);
  }

  /**
   * Moves a card (spec §4): in one transaction the ticket loses every Kanban tag it carries and gains the
   * target lane's (none for 'Em aberto'); its other tags stay. The ticket row is locked, so two people
   * dropping the same card at once are serialised, and `fromTagId` lets the second one know it moved.
   */
  async move(actor: Actor, ticketId: number, input: { fromTagId?: number | null; toTagId: number | null }): Promise<TicketDTO> {
    const ticket = await this.db.transaction(async (tx) => {
      const [t] = await tx
        .select({ id: tickets.id, userId: tickets.userId, queueId: tickets.queueId, status: tickets.status })
        .from(tickets)
        .where(and(eq(tickets.companyId, actor.companyId), eq(tickets.id, ticketId)))
        .limit(1)
        .for("update");
      if (!t) throw notFound("ERR_NO_TICKET_FOUND");
      if (!tagPolicy.tagTicket(actor, t)) throw forbidden();
      const lanes = await this.laneIds(tx, actor.companyId);
      if (input.toTagId !== null && !lanes.includes(input.toTagId)) throw notFound("ERR_NO_TAG_FOUND");
      const carried = await tx
        .select({ id: ticketTags.tagId })
        .from(ticketTags)
        .where(and(eq(ticketTags.companyId, actor.companyId), eq(ticketTags.ticketId, t.id)));
      const current = laneOf({ tags: carried.map((c) => ({ id: c.id, name: "", color: "" })) }, lanes);
      if (input.fromTagId !== undefined && input.fromTagId !== current)
        throw new AppError("ERR_KANBAN_LANE_CHANGED", 409, current === null ? undefined : { laneTagId: current });
      const kanbanCarried = carried.map((c) => c.id).filter((id) => lanes.includes(id));
      if (current === input.toTagId && kanbanCarried.length <= 1) return presentTicketById(tx, actor.companyId, t.id);
      if (kanbanCarried.length)
        await tx
          .delete(ticketTags)
          .where(and(eq(ticketTags.companyId, actor.companyId), eq(ticketTags.ticketId, t.id), inArray(ticketTags.tagId, kanbanCarried)));
      if (input.toTagId !== null)
        await tx.insert(ticketTags).values({ companyId: actor.companyId, ticketId: t.id, tagId: input.toTagId }).onConflictDoNothing();
      const dto = (await presentTicketById(tx, actor.companyId, t.id))!;
      // Everyone who sees the ticket (lists, open chats, boards) gets its new tags.
      await this.ctx.events.record(tx, { type: "tickets.updated", companyId: actor.companyId, ticket: dto });
      return dto;
    });
    return ticket!;
  }
}
