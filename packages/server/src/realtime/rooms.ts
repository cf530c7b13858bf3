import type { DomainEvent } from "../events/bus";

/** Room names. Tenant rooms are joined by the server from the verified token only. */
export const rooms = {
  company: (companyId: number) => `company:${companyId}`,
  admins: (companyId: number) => `company:${companyId}:admins`,
  user: (companyId: number, userId: number) => `company:${companyId}:user:${userId}`,
  queue: (companyId: number, queueId: number) => `company:${companyId}:queue:${queueId}`,
  ticket: (companyId: number, ticketId: number) => `company:${companyId}:ticket:${ticketId}`,
  session: (sid: string) => `session:${sid}`,
  /** Admins' billing notices (`payment`); the only room of an expired company's billing-only session. */
  billing: (companyId: number) => `company:${companyId}:billing`,
  /** Every authenticated socket of every company: platform-wide notices (announcements). */
  platform: () => "platform",
};

/**
 * One socket emit as data: the event name of spec §7, its payload, the narrowest rooms that may see it, and
 * rooms to leave out. Only realtime/ turns these into Socket.IO calls, so room routing is testable without
 * sockets.
 */
export interface SocketEmit {
  event: string;
  payload: unknown;
  rooms: string | string[];
  except?: string | string[];
}

/** A module's mapping from its domain events to socket emits (empty when the event is not for sockets). */
export type EventDelivery = (event: DomainEvent) => SocketEmit[];
