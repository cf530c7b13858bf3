import type { TagDTO } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

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
export const deliverTagEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  switch (event.type) {
    case "tags.created":
    case "tags.updated":
      emits.push({
        event: "tag",
        rooms: rooms.company(event.companyId),
        payload: { action: event.type === "tags.created" ? "create" : "update", tag: event.tag },
      });
      return emits;
    case "tags.deleted":
      emits.push({ event: "tag", rooms: rooms.company(event.companyId), payload: { action: "delete", tagId: event.tagId } });
      return emits;
  }
  return emits;
};
