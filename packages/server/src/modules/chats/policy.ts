import type { Actor } from "../auth/service";

/**
 * Internal chat (spec §6): a chat is seen and written to by its members only; editing its title and members
 * and deleting it are for its owner (ownerId equals the caller). Admins get no override: a chat is a private
 * conversation, and the spec names only the owner. A chat whose owner was deleted (ownerId null) can no
 * longer be edited or deleted; its members keep talking.
 */
export const chatPolicy = {
  manage: (actor: Actor, chat: { ownerId: number | null }) => chat.ownerId !== null && chat.ownerId === actor.id,
};
