import type { ContactDTO } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "contacts.created": { contact: ContactDTO };
    "contacts.updated": { contact: ContactDTO };
    "contacts.deleted": { contactId: number };
  }
}

/** `contact` to the company room: {action:"create"|"update", contact} or {action:"delete", contactId}. */
export const deliverContactEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  switch (event.type) {
    case "contacts.created":
    case "contacts.updated":
      emits.push({
        event: "contact",
        rooms: rooms.company(event.companyId),
        payload: { action: event.type === "contacts.created" ? "create" : "update", contact: event.contact },
      });
      return emits;
    case "contacts.deleted":
      emits.push({ event: "contact", rooms: rooms.company(event.companyId), payload: { action: "delete", contactId: event.contactId } });
      return emits;
  }
  return emits;
};
