import type { AnotherLoginEvent } from "@balcao/shared";
import { rooms, type EventDelivery } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "auth.anotherLogin": { userId: number; payload: AnotherLoginEvent; revokedSessionIds: string[] };
  }
}

export const deliverAuthEvents: EventDelivery = (io, event) => {
  if (event.type !== "auth.anotherLogin") return;
  const sessionRooms = event.revokedSessionIds.map(rooms.session);
  io.to(sessionRooms).emit("auth", event.payload);
  // Give the packet a moment to leave before the sockets of the ended sessions are closed.
  setTimeout(() => io.in(sessionRooms).disconnectSockets(true), 200);
};
