import { z } from "zod";
import { idField } from "./common";
import { idListParam, ticketContactDto, ticketDto, type TicketDTO } from "./tickets";

/**
 * Kanban board (spec §2, §4, §7): lane 'Em aberto' for tickets without a Kanban tag, then one lane per Kanban
 * tag (GET /tags/kanban, in its order). A ticket with several Kanban tags sits in the first of them.
 */
export const KANBAN_MAX_TICKETS = 10_000;
/** A card shows the start of the last message; the board answers only that much of it. */
export const KANBAN_PREVIEW_CHARS = 100;

/** GET /ticket/kanban?queueIds=[…] — the spec's client sends the list as JSON text. */
export const kanbanQuery = z.object({ queueIds: idListParam.optional() });

export const kanbanMoveParams = z.object({ ticketId: idField });

const laneId = z.union([z.null(), idField]);

/**
 * PUT /ticket/kanban/:ticketId: one call that takes the card out of its lane (every Kanban tag of the ticket
 * goes) and into `toTagId` (null = 'Em aberto'). `fromTagId`, when sent, is the lane the mover saw: if the
 * card is elsewhere by then (someone moved it first) the answer is 409 ERR_KANBAN_LANE_CHANGED.
 */
export const kanbanMoveBody = z.object({
  fromTagId: laneId.optional(),
  toTagId: laneId,
});
export type KanbanMoveBody = z.input<typeof kanbanMoveBody>;

/** A card: what the board shows of a ticket (a TicketDTO from a `ticket` event fits it too). */
export const kanbanTicketDto = ticketDto
  .pick({
    id: true,
    uuid: true,
    status: true,
    userId: true,
    queueId: true,
    contactId: true,
    lastMessage: true,
    unreadMessages: true,
    updatedAt: true,
    tags: true,
  })
  .extend({ contact: ticketContactDto.pick({ id: true, name: true, number: true }) });
export type KanbanTicketDTO = z.infer<typeof kanbanTicketDto>;

export const kanbanResponse = z.object({
  /** Pending and open tickets the caller may see, newest activity first. */
  tickets: z.array(kanbanTicketDto),
  /** More than KANBAN_MAX_TICKETS matched: narrow the queues. */
  truncated: z.boolean(),
});
export type KanbanResponse = z.infer<typeof kanbanResponse>;

/** The lane a ticket belongs in: the first Kanban tag it carries in lane order, else null ('Em aberto'). */
export function laneOf(ticket: Pick<TicketDTO, "tags">, laneIds: readonly number[]): number | null {
  const carried = new Set(ticket.tags.map((t) => t.id));
  return laneIds.find((id) => carried.has(id)) ?? null;
}
