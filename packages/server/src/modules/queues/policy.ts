import { isAdmin } from "@balcao/shared";
import type { Actor } from "../auth/service";

/**
 * Queues, their option trees and the company's opening hours are managed from admin-only screens
 * (spec §6: Gerência/Administração); every profile may read them (filters, transfer, new ticket).
 */
export const queuePolicy = {
  read: (_actor: Actor) => true,
  write: (actor: Actor) => isAdmin(actor),
  /** `GET /queue?companyId=` names another company: super users only (reference defect 3). */
  readOtherCompany: (actor: Actor) => actor.super,
};
