import { isAdmin } from "@balcao/shared";
import type { Actor } from "../auth/service";

/**
 * Scheduled messages (spec §6 puts /schedules in the Atendimento group, open to every profile): everyone in
 * the company sees and creates them; changing or deleting one is for its author and admins, like quick
 * messages (the reference let only admins PUT, so attendants could not fix their own typo).
 */
export const schedulePolicy = {
  create: (_actor: Actor) => true,
  modify: (actor: Actor, record: { userId: number | null }) => isAdmin(actor) || (record.userId !== null && record.userId === actor.id),
};
