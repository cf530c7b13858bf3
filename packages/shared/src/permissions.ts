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
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const RULES: Record<Profile, readonly Permission[]> = {
  admin: PERMISSIONS,
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
export const isSuper = (actor: Actor | null | undefined): boolean => actor?.super === true;
