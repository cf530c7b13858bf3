import { isAdmin } from "@balcao/shared";
import type { Actor } from "../auth/service";

/**
 * Quick messages are shared by the whole company (the composer suggests all of them); anyone creates
 * them; only the author or an admin edits or deletes one. A message whose author was deleted is admin-only.
 */
export const quickMessagePolicy = {
  create: (_actor: Actor) => true,
  modify: (actor: Actor, record: { userId: number | null }) => isAdmin(actor) || (record.userId !== null && record.userId === actor.id),
  /** GET /quick-messages/list?companyId: honoured for super users only (reference defect 3). */
  listScope: (actor: Actor, companyId?: number) => (actor.super && companyId ? companyId : actor.companyId),
};
