import type { ContactDTO } from "@balcao/shared";
import { rooms, type EventDelivery } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "contacts.created": { contact: ContactDTO };
    "contacts.updated": { contact: ContactDTO };
    "contacts.deleted": { contactId: number };
  }
}

/** `contact` to the company room: {action:"create"|"update", contact} or {action:"delete", contactId}. */
export const deliverContactEvents: EventDelivery = (io, event) => {
  switch (event.type) {
    case "contacts.created":
    case "contacts.updated":
      io.to(rooms.company(event.companyId)).emit("contact", { action: event.type === "contacts.created" ? "create" : "update", contact: event.contact });
      return;
    case "contacts.deleted":
      io.to(rooms.company(event.companyId)).emit("contact", { action: "delete", contactId: event.contactId });
      return;
  }
};
