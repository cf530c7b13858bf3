import { can } from "@balcao/shared";
import type { Actor } from "../auth/service";

/**
 * Spec §6 rules for contacts. Listing, creating, editing (the ticket drawer lets "whoever opens the ticket"
 * edit) and importing are open to every profile of the company; deleting is contacts-page:deleteContact (admin).
 */
export const contactPolicy = {
  create: (_actor: Actor) => true,
  update: (_actor: Actor) => true,
  import: (_actor: Actor) => true,
  delete: (actor: Actor) => can(actor, "contacts-page:deleteContact"),
  /** Which company GET /contacts/list reads: a client-sent companyId only counts for super users. */
  listScope: (actor: Actor, companyId?: number) => (actor.super && companyId ? companyId : actor.companyId),
};
