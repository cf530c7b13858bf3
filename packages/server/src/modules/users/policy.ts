import { isAdmin } from "@balcao/shared";
import type { Actor } from "../auth/service";

/** Spec §6 rules for users, as pure predicates (the route layer turns a `false` into 403). */
export const userPolicy = {
  create: (actor: Actor) => isAdmin(actor),
  delete: (actor: Actor, targetId: number) => isAdmin(actor) && actor.id !== targetId,
  update: (actor: Actor, targetId: number) => isAdmin(actor) || actor.id === targetId,
  /** user-modal:editProfile and user-modal:editQueues. */
  changeAccess: (actor: Actor) => isAdmin(actor),
};
