import type { UserDTO } from "@balcao/shared";
import type { EventDelivery, SocketEmit } from "../../realtime/rooms";
import { rooms } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "users.created": { user: UserDTO };
    "users.updated": { user: UserDTO };
    "users.deleted": { userId: number };
  }
}

export const deliverUserEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  switch (event.type) {
    case "users.created":
    case "users.updated":
      emits.push({
        event: "user",
        rooms: rooms.company(event.companyId),
        payload: { action: event.type === "users.created" ? "create" : "update", user: event.user },
      });
      // Moving the user's sockets between rooms (or closing them on a profile change): realtime/revocation.ts.
      return emits;
    case "users.deleted":
      emits.push({ event: "user", rooms: rooms.company(event.companyId), payload: { action: "delete", userId: event.userId } });
      return emits;
  }
  return emits;
};
