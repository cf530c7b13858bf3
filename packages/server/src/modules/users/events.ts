import type { UserDTO } from "@balcao/shared";
import type { EventDelivery } from "../../realtime/rooms";
import { rooms } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "users.created": { user: UserDTO };
    "users.updated": { user: UserDTO };
    "users.deleted": { userId: number };
  }
}

export const deliverUserEvents: EventDelivery = (io, event) => {
  switch (event.type) {
    case "users.created":
    case "users.updated":
      io.to(rooms.company(event.companyId)).emit("user", { action: event.type === "users.created" ? "create" : "update", user: event.user });
      return;
    case "users.deleted":
      io.to(rooms.company(event.companyId)).emit("user", { action: "delete", userId: event.userId });
      return;
  }
};
