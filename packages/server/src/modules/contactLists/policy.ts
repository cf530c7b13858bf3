import { isAdmin } from "@balcao/shared";
import type { Actor } from "../auth/service";

/**
 * Contact lists belong to campaigns, which spec §6 puts in the admin-only menus: admins read and change them,
 * anyone else gets 403 ERR_NO_PERMISSION (the lists hold the numbers a mass message goes to).
 */
export const contactListPolicy = {
  manage: (actor: Actor) => isAdmin(actor),
};
