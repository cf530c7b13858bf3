import type { PaymentEventPayload } from "@balcao/shared";
import { rooms, type EventDelivery, type SocketEmit } from "../../realtime/rooms";

declare module "../../events/bus" {
  interface DomainEvents {
    /** An invoice was paid (once) and the company's due date moved: its open tabs show the renewal. */
    "billing.paid": { payload: PaymentEventPayload };
  }
}

/**
 * `payment` {action:"CONCLUIDA", company:{id, dueDate}, invoiceId} to the company's room, and to the billing
 * room where an expired company's admin waits with a billing-only session (it is in no other room).
 */
export const deliverBillingEvents: EventDelivery = (event) => {
  const emits: SocketEmit[] = [];
  if (event.type !== "billing.paid") return emits;
  emits.push({ event: "payment", rooms: [rooms.company(event.companyId), rooms.billing(event.companyId)], payload: event.payload });
  return emits;
};
