import { isAdmin } from "@balcao/shared";
import type { Actor } from "../auth/service";
import { canSeeTicket, type TicketScope } from "../tickets/policy";

/** Spec §6 names a supervisor profile for the Kanban switch; Balcão has none yet, so it is admin only. */
const isSupervisor = (actor: Actor) => (actor.profile as string) === "supervisor";

/**
 * Tags: every profile lists them, creates them (the ticket header's tag editor creates by name) and tags
 * the tickets it can see; editing and deleting a tag (it changes every ticket carrying it) is admin only,
 * like the reference's PUT; a Kanban lane (kanban = 1) only admin and supervisor may set.
 */
export const tagPolicy = {
  create: (_actor: Actor) => true,
  setKanban: (actor: Actor) => isAdmin(actor) || isSupervisor(actor),
  update: (actor: Actor) => isAdmin(actor),
  delete: (actor: Actor) => isAdmin(actor),
  tagTicket: (actor: Actor, ticket: TicketScope) => canSeeTicket(actor, ticket),
};
