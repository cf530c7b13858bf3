import type { AppMessageEvent, MessageDTO, TicketDTO } from "@balcao/shared";
import type { EventDelivery, SocketEmit } from "../../realtime/rooms";
import { ticketRooms } from "../tickets/events";
import type { TicketScope } from "../tickets/policy";

declare module "../../events/bus" {
  interface DomainEvents {
    "messages.created": { message: MessageDTO; ticket: TicketDTO };
    "messages.updated": { message: MessageDTO; scope: TicketScope };
    /**
     * An inbound customer message was stored (the chatbot and automatic messages react to it). Its contact, body
     * and media type travel with it, so consumers need not read the message back (issue 20); events written
     * before they did lack them, hence optional.
     */
    "messages.received": {
      messageId: number;
      ticketId: number;
      ticketCreated: boolean;
      connectionId: number;
      contactId?: number;
      body?: string;
      mediaType?: string;
      /** The ticket as the message found it: the bot leaves an attended one alone without reading it (issue 20). */
      ticket?: { status: string; userId: number | null; queueId: number | null; isGroup: boolean };
    };
  }
}

const scopeOfTicket = (t: TicketDTO): TicketScope => ({ userId: t.userId, queueId: t.queueId, status: t.status });

export const deliverMessageEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  switch (event.type) {
    case "messages.created":
      emits.push({
        event: "appMessage",
        rooms: ticketRooms(event.companyId, scopeOfTicket(event.ticket)),
        payload: {
          action: "create",
          message: event.message,
          ticket: event.ticket,
          contact: event.ticket.contact,
        } satisfies AppMessageEvent,
      });
      return emits;
    case "messages.updated":
      emits.push({
        event: "appMessage",
        rooms: ticketRooms(event.companyId, event.scope),
        payload: { action: "update", message: event.message } satisfies AppMessageEvent,
      });
      return emits;
  }
  return emits;
};
