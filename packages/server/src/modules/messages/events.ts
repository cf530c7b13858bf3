import type { AppMessageEvent, MessageDTO, TicketDTO } from "@balcao/shared";
import type { EventDelivery } from "../../realtime/rooms";
import { ticketRooms } from "../tickets/events";
import type { TicketScope } from "../tickets/policy";

declare module "../../events/bus" {
  interface DomainEvents {
    "messages.created": { message: MessageDTO; ticket: TicketDTO };
    "messages.updated": { message: MessageDTO; scope: TicketScope };
    /** An inbound customer message was stored (the chatbot and automatic messages react to it). */
    "messages.received": { messageId: number; ticketId: number; ticketCreated: boolean; connectionId: number };
  }
}

const scopeOfTicket = (t: TicketDTO): TicketScope => ({ userId: t.userId, queueId: t.queueId, status: t.status });

export const deliverMessageEvents: EventDelivery = (io, event) => {
  switch (event.type) {
    case "messages.created":
      io.to(ticketRooms(event.companyId, scopeOfTicket(event.ticket))).emit("appMessage", {
        action: "create",
        message: event.message,
        ticket: event.ticket,
        contact: event.ticket.contact,
      } satisfies AppMessageEvent);
      return;
    case "messages.updated":
      io.to(ticketRooms(event.companyId, event.scope)).emit("appMessage", { action: "update", message: event.message } satisfies AppMessageEvent);
      return;
  }
};
