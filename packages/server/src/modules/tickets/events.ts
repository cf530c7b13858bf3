import type { TicketDTO, TicketEvent } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";
import type { TicketScope } from "./policy";

declare module "../../events/bus" {
  interface DomainEvents {
    /** `previous` is the ticket's scope before the change, to tell sockets that lost sight of it. */
    "tickets.updated": { ticket: TicketDTO; previous?: TicketScope };
    "tickets.deleted": { ticketId: number; previous: TicketScope };
    "tickets.unreadReset": { ticketId: number; scope: TicketScope };
  }
}

/**
 * Rooms whose sockets may see a ticket (mirrors canSeeTicket): admins always; a queue's members;
 * the assignee; everyone when the ticket has no queue yet.
 */
export function ticketRooms(companyId: number, scope: TicketScope): string[] {
  if (scope.queueId === null) return [rooms.company(companyId)];
  const list = [rooms.admins(companyId), rooms.queue(companyId, scope.queueId)];
  if (scope.userId !== null) list.push(rooms.user(companyId, scope.userId));
  return list;
}

export const deliverTicketEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  switch (event.type) {
    case "tickets.updated": {
      const t = event.ticket;
      const now = ticketRooms(event.companyId, { userId: t.userId, queueId: t.queueId, status: t.status });
      emits.push({ event: "ticket", rooms: now, payload: { action: "update", ticket: t } satisfies TicketEvent });
      if (event.previous) {
        const before = ticketRooms(event.companyId, event.previous);
        emits.push({ event: "ticket", rooms: before, except: now, payload: { action: "delete", ticketId: t.id } satisfies TicketEvent });
      }
      return emits;
    }
    case "tickets.deleted":
      emits.push({
        event: "ticket",
        rooms: ticketRooms(event.companyId, event.previous),
        payload: { action: "delete", ticketId: event.ticketId } satisfies TicketEvent,
      });
      return emits;
    case "tickets.unreadReset":
      emits.push({
        event: "ticket",
        rooms: ticketRooms(event.companyId, event.scope),
        payload: { action: "updateUnread", ticketId: event.ticketId } satisfies TicketEvent,
      });
      return emits;
  }
  return emits;
};

declare module "../../events/bus" {
  interface DomainEvents {
    /** What happened, for automatic messages (greeting on accept, transfer notice, completion, rating). */
    "tickets.transitioned": {
      transition: "transfer" | "accept" | "reopen" | "return" | "resolve" | "reassign";
      ticketId: number;
      actorId: number;
      before: TicketScope;
    };
  }
}
