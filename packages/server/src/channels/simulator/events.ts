import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    /** A simulated phone's view changed (company message received, ack moved, message deleted). */
    "simulator.phone": { connectionId: number; number: string };
  }
}

/** Socket `simulator` {action:"update", connectionId, number}: the /simulator page refetches that phone. */
export const deliverSimulatorEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  if (event.type === "simulator.phone")
    emits.push({
      event: "simulator",
      rooms: rooms.company(event.companyId),
      payload: { action: "update", connectionId: event.connectionId, number: event.number },
    });
  return emits;
};
