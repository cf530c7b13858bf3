import type { ConnectionDTO } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";
import { redactConnection } from "./presenter";
import "./health";

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
export const deliverConnectionEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  switch (event.type) {
    case "connections.updated":
      emits.push({ event: "whatsapp", rooms: rooms.admins(event.companyId), payload: { action: "update", whatsapp: event.connection } });
      emits.push({
        event: "whatsapp",
        rooms: rooms.company(event.companyId),
        except: rooms.admins(event.companyId),
        payload: { action: "update", whatsapp: redactConnection(event.connection) },
      });
      return emits;
    case "connections.deleted":
      emits.push({ event: "whatsapp", rooms: rooms.company(event.companyId), payload: { action: "delete", whatsappId: event.connectionId } });
      return emits;
    case "connections.healthAlert":
      // The live alert of issue 21: a connection stayed out of CONNECTED too long (admins' toast).
      emits.push({ event: "whatsappHealthAlert", rooms: rooms.admins(event.companyId), payload: event.alert });
      return emits;
    case "connections.session":
      emits.push({ event: "whatsappSession", rooms: rooms.admins(event.companyId), payload: { action: "update", session: event.connection } });
      // Other profiles keep their connection lists' statuses fresh without ever seeing a QR.
      emits.push({
        event: "whatsapp",
        rooms: rooms.company(event.companyId),
        except: rooms.admins(event.companyId),
        payload: { action: "update", whatsapp: redactConnection(event.connection) },
      });
      return emits;
  }
  return emits;
};
