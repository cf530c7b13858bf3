import type { SettingDTO } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "settings.updated": { setting: SettingDTO };
  }
}

export const deliverSettingEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  if (event.type === "settings.updated")
    emits.push({ event: "settings", rooms: rooms.company(event.companyId), payload: { action: "update", setting: event.setting } });
  return emits;
};
