import type { SettingDTO } from "@balcao/shared";
import { rooms, type EventDelivery } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "settings.updated": { setting: SettingDTO };
  }
}

export const deliverSettingEvents: EventDelivery = (io, event) => {
  if (event.type === "settings.updated") io.to(rooms.company(event.companyId)).emit("settings", { action: "update", setting: event.setting });
};
