import type { ScheduleDTO, ScheduleEvent } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "schedules.created": { schedule: ScheduleDTO };
    /** Edited, or its state moved (due, sent, failed). */
    "schedules.updated": { schedule: ScheduleDTO };
    "schedules.deleted": { scheduleId: number };
  }
}

/** `schedule` to the company room (every profile sees the company's schedules). */
export const deliverScheduleEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  switch (event.type) {
    case "schedules.created":
    case "schedules.updated":
      emits.push({
        event: "schedule",
        rooms: rooms.company(event.companyId),
        payload: { action: event.type === "schedules.created" ? "create" : "update", schedule: event.schedule } satisfies ScheduleEvent,
      });
      return emits;
    case "schedules.deleted":
      emits.push({
        event: "schedule",
        rooms: rooms.company(event.companyId),
        payload: { action: "delete", scheduleId: event.scheduleId } satisfies ScheduleEvent,
      });
      return emits;
  }
  return emits;
};
