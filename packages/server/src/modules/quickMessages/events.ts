import type { QuickMessageDTO } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "quickMessages.created": { record: QuickMessageDTO };
    "quickMessages.updated": { record: QuickMessageDTO };
    "quickMessages.deleted": { id: number };
  }
}

/** `quickmessage` to the company room: {action:"create"|"update", record} or {action:"delete", id}. */
export const deliverQuickMessageEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  switch (event.type) {
    case "quickMessages.created":
    case "quickMessages.updated":
      emits.push({
        event: "quickmessage",
        rooms: rooms.company(event.companyId),
        payload: { action: event.type === "quickMessages.created" ? "create" : "update", record: event.record },
      });
      return emits;
    case "quickMessages.deleted":
      emits.push({ event: "quickmessage", rooms: rooms.company(event.companyId), payload: { action: "delete", id: event.id } });
      return emits;
  }
  return emits;
};
