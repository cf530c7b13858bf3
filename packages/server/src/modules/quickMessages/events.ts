import type { QuickMessageDTO } from "@balcao/shared";
import { rooms, type EventDelivery } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "quickMessages.created": { record: QuickMessageDTO };
    "quickMessages.updated": { record: QuickMessageDTO };
    "quickMessages.deleted": { id: number };
  }
}

/** `quickmessage` to the company room: {action:"create"|"update", record} or {action:"delete", id}. */
export const deliverQuickMessageEvents: EventDelivery = (io, event) => {
  switch (event.type) {
    case "quickMessages.created":
    case "quickMessages.updated":
      io.to(rooms.company(event.companyId)).emit("quickmessage", { action: event.type === "quickMessages.created" ? "create" : "update", record: event.record });
      return;
    case "quickMessages.deleted":
      io.to(rooms.company(event.companyId)).emit("quickmessage", { action: "delete", id: event.id });
      return;
  }
};
