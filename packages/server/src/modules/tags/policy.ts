import { can, isAdmin, isSupervisor } from "@balcao/shared";
import type { Actor } from "../auth/service";
import { canSeeTicket, type TicketScope } from "../tickets/policy";

/**
 * Tags: every profile lists them, creates them (the ticket header's tag editor creates by name) and tags
 * the tickets it can see; deleting a tag (it changes every ticket carrying it) is admin only, like the
 * reference's; editing is for admins and supervisors, whose tag modal has the Kanban switch (spec §6) — a
 * lane's name and colour belong to whoever arranges the board. Only they may set kanban = 1.
 */
export const tagPolicy = {
  create: (_actor: Actor) => true,
  setKanban: (actor: Actor) => can(actor, "tag-modal:kanban"),
  update: (actor: Actor) => isAdmin(actor) || isSupervisor(actor),
  delete: (actor: Actor) => isAdmin(actor),
  tagTicket: (actor: Actor, ticket: TicketScope) => canSeeTicket(actor, ticket),
};
