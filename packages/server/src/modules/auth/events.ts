import type { AnotherLoginEvent } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    "auth.anotherLogin": { userId: number; payload: AnotherLoginEvent; revokedSessionIds: string[] };
    /** Sessions that ended other than by a new login; realtime/revocation.ts closes their sockets. */
    "auth.sessionsEnded": { userId: number; sessionIds: string[]; reason: SessionEndReason };
  }
}

export type SessionEndReason = "logout" | "passwordChanged" | "tokenReuse";

export const deliverAuthEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  if (event.type !== "auth.anotherLogin") return emits;
  const sessionRooms = event.revokedSessionIds.map(rooms.session);
  emits.push({ event: "auth", rooms: sessionRooms, payload: event.payload });
  // realtime/revocation.ts closes these sockets once the packet has had a moment to leave.
  return emits;
};
