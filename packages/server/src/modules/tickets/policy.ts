import { isAdmin } from "@balcao/shared";
import type { Actor } from "../auth/service";

export interface TicketScope {
  userId: number | null;
  queueId: number | null;
  status: string;
}

/**
 * Spec §6: a profile-user sees tickets of its own queues. Tickets with no queue yet (the bot has not
 * routed them, or the company has no queues) are visible to everyone, and one's own tickets always are.
 */
export function canSeeTicket(actor: Actor, ticket: TicketScope): boolean {
  if (isAdmin(actor)) return true;
  if (ticket.userId === actor.id) return true;
  if (ticket.queueId === null) return true;
  return actor.queueIds.includes(ticket.queueId);
}

export const ticketPolicy = {
  /** Accept a pending ticket, or reopen a closed one. */
  take: (actor: Actor, t: TicketScope) => canSeeTicket(actor, t),
  /** Return, resolve, transfer or reassign: the assignee or an admin; an unassigned ticket, whoever sees it. */
  handle: (actor: Actor, t: TicketScope) => isAdmin(actor) || t.userId === actor.id || (t.userId === null && canSeeTicket(actor, t)),
  delete: (actor: Actor) => isAdmin(actor),
  /** Open a ticket for a contact without choosing a queue. */
  createWithoutQueue: (actor: Actor) => isAdmin(actor),
};
