import type { Profile } from "./constants";

/** Permission names of spec §6. The server enforces the same rules through each domain's policy. */
export const PERMISSIONS = [
  "dashboard:view",
  "drawer-admin-items:view",
  "tickets-manager:showall",
  "ticket-options:deleteTicket",
  "connections-page:addConnection",
  "connections-page:actionButtons",
  "connections-page:editOrDeleteConnection",
  "user-modal:editProfile",
  "user-modal:editQueues",
  "contacts-page:deleteContact",
  "tickets:spy",
  "tickets:filterByUser",
  /** The Kanban switch of the tag modal (spec §6: admin and supervisor). */
  "tag-modal:kanban",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Spec §6 names the permissions but not the rules; these are Balcão's. A supervisor is an attendant who may
 * also turn tags into Kanban lanes and show every ticket of its own queues (show-all never widens the queues).
 */
const RULES: Record<Profile, readonly Permission[]> = {
  admin: PERMISSIONS,
  supervisor: ["tickets-manager:showall", "tag-modal:kanban"],
  user: [],
};

export interface Actor {
  profile: Profile | string;
  super?: boolean;
}

export function can(actor: Actor | null | undefined, permission: Permission): boolean {
  if (!actor) return false;
  const rules = RULES[actor.profile as Profile];
  return rules ? rules.includes(permission) : false;
}

export const isAdmin = (actor: Actor | null | undefined): boolean => actor?.profile === "admin";
export const isSupervisor = (actor: Actor | null | undefined): boolean => actor?.profile === "supervisor";
export const isSuper = (actor: Actor | null | undefined): boolean => actor?.super === true;
