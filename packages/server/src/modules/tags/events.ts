import type { TagDTO } from "@balcao/shared";
import { rooms, type EventDelivery } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "tags.created": { tag: TagDTO };
    "tags.updated": { tag: TagDTO };
    "tags.deleted": { tagId: number };
    /**
     * A ticket's tags changed (sync, add, remove). Not delivered here: the tickets module turns it into
     * a `ticket` update for the rooms that see the ticket.
     */
    "tickets.tagsChanged": { ticketId: number };
  }
}

/** `tag` to the company room: {action:"create"|"update", tag} or {action:"delete", tagId}. */
export const deliverTagEvents: EventDelivery = (io, event) => {
  switch (event.type) {
    case "tags.created":
    case "tags.updated":
      io.to(rooms.company(event.companyId)).emit("tag", { action: event.type === "tags.created" ? "create" : "update", tag: event.tag });
      return;
    case "tags.deleted":
      io.to(rooms.company(event.companyId)).emit("tag", { action: "delete", tagId: event.tagId });
      return;
  }
};
