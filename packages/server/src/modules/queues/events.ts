import type { QueueDTO, QueueEvent } from "@balcao/shared";
import { rooms, type EventDelivery } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "queues.created": { queue: QueueDTO };
    "queues.updated": { queue: QueueDTO };
    "queues.deleted": { queueId: number };
  }
}

/** `queue` to the company room: {action:"create"|"update", queue} or {action:"delete", queueId}. */
export const deliverQueueEvents: EventDelivery = (io, event) => {
  switch (event.type) {
    case "queues.created":
    case "queues.updated":
      io.to(rooms.company(event.companyId)).emit("queue", {
        action: event.type === "queues.created" ? "create" : "update",
        queue: event.queue,
      } satisfies QueueEvent);
      return;
    case "queues.deleted":
      io.to(rooms.company(event.companyId)).emit("queue", { action: "delete", queueId: event.queueId } satisfies QueueEvent);
      return;
  }
};
