import { rooms, type EventDelivery } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    /** A simulated phone's view changed (company message received, ack moved, message deleted). */
    "simulator.phone": { connectionId: number; number: string };
  }
}

/** Socket `simulator` {action:"update", connectionId, number}: the /simulator page refetches that phone. */
export const deliverSimulatorEvents: EventDelivery = (io, event) => {
  if (event.type === "simulator.phone")
    io.to(rooms.company(event.companyId)).emit("simulator", { action: "update", connectionId: event.connectionId, number: event.number });
};
