import type { ConnectionDTO } from "@balcao/shared";
import { rooms, type EventDelivery } from "../../realtime/rooms";
import { redactConnection } from "./presenter";

declare module "../../events/bus" {
  interface DomainEvents {
    /** A connection was created or edited (admin view of the DTO). */
    "connections.updated": { connection: ConnectionDTO };
    "connections.deleted": { connectionId: number };
    /** Its session changed: status, QR, retries (admin view). */
    "connections.session": { connection: ConnectionDTO };
  }
}

/**
 * `whatsapp` goes to the whole company (admins get the full DTO, other profiles the redacted one:
 * no QR, no token); `whatsappSession` carries QR codes, so it goes to admins only.
 */
export const deliverConnectionEvents: EventDelivery = (io, event) => {
  switch (event.type) {
    case "connections.updated":
      io.to(rooms.admins(event.companyId)).emit("whatsapp", { action: "update", whatsapp: event.connection });
      io.to(rooms.company(event.companyId))
        .except(rooms.admins(event.companyId))
        .emit("whatsapp", { action: "update", whatsapp: redactConnection(event.connection) });
      return;
    case "connections.deleted":
      io.to(rooms.company(event.companyId)).emit("whatsapp", { action: "delete", whatsappId: event.connectionId });
      return;
    case "connections.session":
      io.to(rooms.admins(event.companyId)).emit("whatsappSession", { action: "update", session: event.connection });
      // Other profiles keep their connection lists' statuses fresh without ever seeing a QR.
      io.to(rooms.company(event.companyId))
        .except(rooms.admins(event.companyId))
        .emit("whatsapp", { action: "update", whatsapp: redactConnection(event.connection) });
      return;
  }
};
