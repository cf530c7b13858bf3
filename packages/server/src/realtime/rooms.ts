import type { Server } from "socket.io";
import type { DomainEvent } from "../events/bus";

/** Room names. Tenant rooms are joined by the server from the verified token only. */
export const rooms = {
  company: (companyId: number) => `company:${companyId}`,
  admins: (companyId: number) => `company:${companyId}:admins`,
  user: (companyId: number, userId: number) => `company:${companyId}:user:${userId}`,
  queue: (companyId: number, queueId: number) => `company:${companyId}:queue:${queueId}`,
  ticket: (companyId: number, ticketId: number) => `company:${companyId}:ticket:${ticketId}`,
  session: (sid: string) => `session:${sid}`,
};

/** A module's mapping from its domain events to socket emits (event name of spec §7, narrowest room). */
export type EventDelivery = (io: Server, event: DomainEvent) => void;
