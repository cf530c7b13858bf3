import type { QueueDTO, QueueEvent } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "queues.created": { queue: QueueDTO };
    "queues.updated": { queue: QueueDTO };
    "queues.deleted": { queueId: number };
  }
}

/** `queue` to the company room: {action:"create"|"update", queue} or {action:"delete", queueId}. */
export const deliverQueueEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  switch (event.type) {
    case "queues.created":
    case "queues.updated":
      emits.push({
        event: "queue",
        rooms: rooms.company(event.companyId),
        payload: {
          action: event.type === "queues.created" ? "create" : "update",
          queue: event.queue,
        } satisfies QueueEvent,
      });
      return emits;
    case "queues.deleted":
      emits.push({
        event: "queue",
        rooms: rooms.company(event.companyId),
        payload: { action: "delete", queueId: event.queueId } satisfies QueueEvent,
      });
      return emits;
  }
  return emits;
};
