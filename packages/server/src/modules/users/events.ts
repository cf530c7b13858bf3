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

/** A changed profile or queue list changes which ticket rooms the user's open sockets belong to. */
async function refreshRooms(io: Parameters<EventDelivery>[0], companyId: number, user: UserDTO): Promise<void> {
  const sockets = await io.in(rooms.user(companyId, user.id)).fetchSockets();
  const queuePrefix = `company:${companyId}:queue:`;
  for (const socket of sockets) {
    for (const room of socket.rooms) if (room.startsWith(queuePrefix)) socket.leave(room);
    if (user.profile === "admin") socket.join(rooms.admins(companyId));
    else {
      socket.leave(rooms.admins(companyId));
      socket.join(user.queues.map((q) => rooms.queue(companyId, q.id)));
    }
  }
}

export const deliverUserEvents: EventDelivery = (io, event) => {
  switch (event.type) {
    case "users.created":
    case "users.updated":
      io.to(rooms.company(event.companyId)).emit("user", { action: event.type === "users.created" ? "create" : "update", user: event.user });
      if (event.type === "users.updated") void refreshRooms(io, event.companyId, event.user);
      return;
    case "users.deleted":
      io.to(rooms.company(event.companyId)).emit("user", { action: "delete", userId: event.userId });
      return;
  }
};
