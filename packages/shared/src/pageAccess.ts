import type { Profile } from "./constants";

/**
 * Access levels shared by the server's route table (packages/server/src/http/access.ts) and the web app's
 * page guards and menu (issue 16): the lowest caller admitted.
 * - public: anyone; member: any signed-in user; supervisor: supervisors and admins;
 *   admin: the company's admins (the platform super user is an admin of its own company); super: the super user.
 */
export const ACCESS_LEVELS = ["public", "member", "supervisor", "admin", "super"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

const RANK: Record<AccessLevel, number> = { public: 0, member: 1, supervisor: 2, admin: 3, super: 4 };

export interface AccessActor {
  profile: Profile | string;
  super?: boolean;
}

export function accessRank(actor: AccessActor): number {
  if (actor.super) return RANK.super;
  return actor.profile === "admin" ? RANK.admin : actor.profile === "supervisor" ? RANK.supervisor : RANK.member;
}

/** Whether an actor (null: signed out) reaches a level. */
export function admitsLevel(level: AccessLevel, actor: AccessActor | null | undefined): boolean {
  if (level === "public") return true;
  return !!actor && accessRank(actor) >= RANK[level];
}

/**
 * Who may open each page of spec §2, by its route pattern (spec §6: the dashboard and the Gerência and
 * Administração groups are admin only; announcements are for the super flag). The server refuses the same
 * pages' admin calls through ROUTE_ACCESS; the web router redirects to /tickets and the drawer hides them.
 */
export const PAGE_ACCESS = {
  "/login": "public",
  "/signup": "public",
  "/simulator/:connectionId?": "public",
  "/": "admin",
  "/tickets/:ticketId?": "member",
  "/quick-messages": "member",
  "/todolist": "member",
  "/schedules": "member",
  "/tags": "member",
  "/contacts": "member",
  "/helps": "member",
  "/kanban": "member",
  "/chats/:id?": "member",
  "/connections": "admin",
  "/users": "admin",
  "/queues": "admin",
  "/messages-api": "admin",
  "/settings": "admin",
  "/financeiro": "admin",
  "/subscription": "admin",
  "/contact-lists": "admin",
  "/contact-lists/:contactListId/contacts": "admin",
  "/campaigns": "admin",
  "/campaign/:campaignId/report": "admin",
  "/campaigns-config": "admin",
  "/announcements": "super",
} as const satisfies Record<string, AccessLevel>;
export type PagePath = keyof typeof PAGE_ACCESS;

/** The level of a page by its route pattern. */
export function pageAccess(path: PagePath): AccessLevel {
  return PAGE_ACCESS[path];
}

/** Whether an actor may open a page (by its route pattern). */
export function canOpenPage(actor: AccessActor | null | undefined, path: PagePath): boolean {
  return admitsLevel(PAGE_ACCESS[path], actor);
}
