/**
 * Who may call each route, in one table (spec §6; issue 11's permission matrix). The level is the lowest
 * caller admitted:
 * - public: anyone; the route authenticates by other means or not at all (login, sign-up, the send API's
 *   connection token, the simulator's link key, the PSP sandbox)
 * - member: any signed-in user of an active company (attendant, supervisor, admin)
 * - supervisor: supervisors and admins
 * - admin: the company's admins (the platform super user is an admin of its own company)
 * - super: the platform super user only
 *
 * `enforceAccess` checks the level right after authentication, before validation and before the body is
 * read, so a refused caller gets 403 whatever it sent. Domain services keep their finer rules (an
 * attendant opening another's ticket, a chat's owner, a user editing only itself); this table is the
 * floor under them. test/security/permissions.test.ts fails while a served route is missing here.
 */
import { accessRank, admitsLevel, type AccessLevel } from "@balcao/shared";
import type { FastifyRequest } from "fastify";
import type { Actor } from "../modules/auth/service";
import { forbidden } from "./errors";

/** The levels live in @balcao/shared, shared with the web app's page guards (PAGE_ACCESS). */
export type Access = AccessLevel;

const PUBLIC: Access = "public";
const MEMBER: Access = "member";
const SUPERVISOR: Access = "supervisor";
const ADMIN: Access = "admin";
const SUPER: Access = "super";

export const ROUTE_ACCESS: Record<string, Access> = {
  // auth, sign-up, health, public plan list
  "GET /health": PUBLIC,
  // Prometheus scrape, outside /api: its own bearer token (METRICS_TOKEN; 404 when unset), http/metrics.ts
  "GET /metrics": PUBLIC,
  "POST /auth/login": PUBLIC,
  "POST /auth/refresh_token": PUBLIC,
  "DELETE /auth/logout": PUBLIC,
  "GET /auth/me": MEMBER,
  "POST /companies/cadastro": PUBLIC,
  "GET /plans/list": PUBLIC,

  // platform administration
  "GET /companies": SUPER,
  "GET /companies/list": SUPER,
  "POST /companies": SUPER,
  "GET /companies/{id}": SUPER,
  "PUT /companies/{id}": SUPER,
  "DELETE /companies/{id}": SUPER,
  "GET /companies/{id}/settings": SUPER,
  "PUT /companies/{id}/settings/{key}": SUPER,
  "GET /companies/{id}/schedules": MEMBER,
  "PUT /companies/{id}/schedules": ADMIN,
  "GET /plans/all": SUPER,
  "POST /plans": SUPER,
  "GET /plans/{id}": SUPER,
  "PUT /plans/{id}": SUPER,
  "DELETE /plans/{id}": SUPER,
  "GET /helps": MEMBER,
  "GET /helps/list": MEMBER,
  "GET /helps/{id}": MEMBER,
  "POST /helps": SUPER,
  "PUT /helps/{id}": SUPER,
  "DELETE /helps/{id}": SUPER,
  "GET /announcements": MEMBER,
  "GET /announcements/{id}": MEMBER,
  "GET /announcements/{id}/media/{mediaId}": MEMBER,
  "POST /announcements/{id}/read": MEMBER,
  "POST /announcements": SUPER,
  "PUT /announcements/{id}": SUPER,
  "DELETE /announcements/{id}": SUPER,
  "POST /announcements/{id}/media-upload": SUPER,
  "DELETE /announcements/{id}/media-upload": SUPER,

  // billing
  "GET /invoices/all": ADMIN,
  "POST /subscription": ADMIN,
  "GET /invoices/platform": SUPER,
  "POST /invoices/{id}/confirm-payment": SUPER,
  "POST /pix-sandbox/pay": PUBLIC,

  // dashboard and reports
  "GET /dashboard": ADMIN,
  "GET /dashboard/reports": ADMIN,
  "GET /dashboard/reports/export": ADMIN,

  // users, settings, connections, queues
  "GET /users/": MEMBER,
  "GET /users/list": MEMBER,
  "GET /users/{id}": MEMBER,
  "PUT /users/{id}": MEMBER,
  "POST /users": ADMIN,
  "DELETE /users/{id}": ADMIN,
  "GET /settings": MEMBER,
  "PUT /settings/{key}": ADMIN,
  "GET /whatsapp/": MEMBER,
  "GET /whatsapp/{id}": MEMBER,
  "POST /whatsapp": ADMIN,
  "PUT /whatsapp/{id}": ADMIN,
  "DELETE /whatsapp/{id}": ADMIN,
  "POST /whatsapp/{id}/token": ADMIN,
  "POST /whatsappsession/{id}": ADMIN,
  "PUT /whatsappsession/{id}": ADMIN,
  "DELETE /whatsappsession/{id}": ADMIN,
  "GET /whatsapp/{id}/health": ADMIN,
  "POST /whatsappsession/{id}/pairing-code": ADMIN,
  "GET /queue": MEMBER,
  "GET /queue/{id}": MEMBER,
  "POST /queue": ADMIN,
  "PUT /queue/{id}": ADMIN,
  "DELETE /queue/{id}": ADMIN,
  "GET /queue-options": MEMBER,
  "GET /queue-options/{id}": MEMBER,
  "POST /queue-options": ADMIN,
  "PUT /queue-options/{id}": ADMIN,
  "DELETE /queue-options/{id}": ADMIN,

  // attendance: tickets, messages, notes, contacts, tags, quick messages, schedules, kanban
  "GET /tickets": MEMBER,
  "POST /tickets": MEMBER,
  "GET /tickets/{id}": MEMBER,
  "PUT /tickets/{id}": MEMBER,
  "DELETE /tickets/{id}": ADMIN,
  "POST /tickets/{id}/read": MEMBER,
  "GET /tickets/{id}/transcript": MEMBER,
  "GET /tickets/u/{uuid}": MEMBER,
  "GET /messages/{ticketId}": MEMBER,
  "POST /messages/{ticketId}": MEMBER,
  "POST /messages/{id}/retry": MEMBER,
  "DELETE /messages/{id}": MEMBER,
  "GET /media/{id}": MEMBER,
  "POST /ticket-notes": MEMBER,
  "GET /ticket-notes/list": MEMBER,
  "DELETE /ticket-notes/{id}": MEMBER,
  "GET /contacts": MEMBER,
  "GET /contacts/list": MEMBER,
  "POST /contacts": MEMBER,
  "POST /contacts/import": MEMBER,
  "GET /contacts/{id}": MEMBER,
  "PUT /contacts/{id}": MEMBER,
  "DELETE /contacts/{id}": ADMIN,
  "GET /tags/": MEMBER,
  "GET /tags/list": MEMBER,
  "GET /tags/kanban": MEMBER,
  "POST /tags/sync": MEMBER,
  "POST /tags": MEMBER,
  "GET /tags/{id}": MEMBER,
  "PUT /tags/{id}": SUPERVISOR,
  "DELETE /tags/{id}": ADMIN,
  "PUT /ticket-tags/{ticketId}/{tagId}": MEMBER,
  "DELETE /ticket-tags/{ticketId}": MEMBER,
  "GET /ticket/kanban": MEMBER,
  "PUT /ticket/kanban/{ticketId}": MEMBER,
  "GET /quick-messages": MEMBER,
  "GET /quick-messages/list": MEMBER,
  "POST /quick-messages": MEMBER,
  "GET /quick-messages/{id}": MEMBER,
  "PUT /quick-messages/{id}": MEMBER,
  "DELETE /quick-messages/{id}": MEMBER,
  "GET /schedules": MEMBER,
  "POST /schedules": MEMBER,
  "GET /schedules/{id}": MEMBER,
  "PUT /schedules/{id}": MEMBER,
  "DELETE /schedules/{id}": MEMBER,
  "POST /schedules/{id}/retry": MEMBER,

  // internal chat: members of a chat; its owner edits and deletes it
  "GET /chats": MEMBER,
  "POST /chats": MEMBER,
  "GET /chats/{id}": MEMBER,
  "PUT /chats/{id}": MEMBER,
  "DELETE /chats/{id}": MEMBER,
  "GET /chats/{id}/messages": MEMBER,
  "POST /chats/{id}/messages": MEMBER,
  "POST /chats/{id}/read": MEMBER,

  // contact lists and campaigns (admin menu, spec §6)
  "GET /contact-lists": ADMIN,
  "GET /contact-lists/list": ADMIN,
  "GET /contact-lists/sample": ADMIN,
  "POST /contact-lists": ADMIN,
  "GET /contact-lists/{id}": ADMIN,
  "PUT /contact-lists/{id}": ADMIN,
  "DELETE /contact-lists/{id}": ADMIN,
  "POST /contact-lists/{id}/upload": ADMIN,
  "GET /contact-lists/{id}/imports/{importId}": ADMIN,
  "GET /contact-list-items": ADMIN,
  "POST /contact-list-items": ADMIN,
  "GET /contact-list-items/{id}": ADMIN,
  "PUT /contact-list-items/{id}": ADMIN,
  "DELETE /contact-list-items/{id}": ADMIN,
  "GET /campaigns": ADMIN,
  "POST /campaigns": ADMIN,
  "GET /campaigns/{id}": ADMIN,
  "PUT /campaigns/{id}": ADMIN,
  "DELETE /campaigns/{id}": ADMIN,
  "POST /campaigns/{id}/cancel": ADMIN,
  "POST /campaigns/{id}/restart": ADMIN,
  "GET /campaigns/{id}/shipping": ADMIN,
  "GET /campaigns/{id}/export": ADMIN,
  "POST /campaigns/{id}/media-upload": ADMIN,
  "DELETE /campaigns/{id}/media-upload": ADMIN,
  "GET /campaign-settings": ADMIN,
  "POST /campaign-settings": ADMIN,

  // outgoing webhooks (admin page)
  "GET /webhooks": ADMIN,
  "POST /webhooks": ADMIN,
  "PUT /webhooks/{id}": ADMIN,
  "DELETE /webhooks/{id}": ADMIN,
  "GET /webhooks/{id}/deliveries": ADMIN,
  "POST /webhooks/deliveries/{id}/resend": ADMIN,

  // connection-alert bell and SMTP e-mail setting (issue 21)
  "GET /notifications": ADMIN,
  "PUT /notifications/read": ADMIN,
  "GET /settings/smtp": ADMIN,
  "PUT /settings/smtp": ADMIN,
  "POST /settings/smtp/test": ADMIN,

  // first-run checklist (issue 16)
  "GET /onboarding": ADMIN,
  "PUT /onboarding": ADMIN,

  // send API (the connection's token) and the simulator (signed-in company or the phone link's key)
  "POST /messages/send": PUBLIC,
  // WhatsApp Cloud API webhook: Meta calls it; verify token (GET) and X-Hub-Signature-256 (POST) authenticate it
  "GET /cloudapi/{connectionId}/webhook": PUBLIC,
  "POST /cloudapi/{connectionId}/webhook": PUBLIC,
  "GET /cloudapi/{connectionId}/templates": MEMBER,
  "POST /cloudapi/{connectionId}/templates/sync": ADMIN,
  "GET /cloudapi/tickets/{ticketId}/window": MEMBER,
  "POST /cloudapi/tickets/{ticketId}/template": MEMBER,
  "POST /cloudapi/messages/{messageId}/reaction": MEMBER,
  "GET /simulator/connections": MEMBER,
  "GET /simulator/{connectionId}": PUBLIC,
  "GET /simulator/{connectionId}/link": ADMIN,
  "POST /simulator/{connectionId}/connection": PUBLIC,
  "GET /simulator/{connectionId}/groups": PUBLIC,
  "POST /simulator/{connectionId}/groups": PUBLIC,
  "PUT /simulator/{connectionId}/groups/{groupId}": PUBLIC,
  "POST /simulator/{connectionId}/groups/{groupId}/messages": PUBLIC,
  "POST /simulator/{connectionId}/scan": PUBLIC,
  "GET /simulator/{connectionId}/phones": PUBLIC,
  "POST /simulator/{connectionId}/phones": PUBLIC,
  "POST /simulator/{connectionId}/phones/{number}/calls": PUBLIC,
  "GET /simulator/{connectionId}/phones/{number}/messages": PUBLIC,
  "POST /simulator/{connectionId}/phones/{number}/messages": PUBLIC,
  "DELETE /simulator/{connectionId}/phones/{number}/messages/{messageId}": PUBLIC,
  "POST /simulator/{connectionId}/phones/{number}/messages/{messageId}/ack": PUBLIC,
  "POST /simulator/{connectionId}/phones/{number}/messages/{messageId}/reaction": PUBLIC,
  "POST /simulator/{connectionId}/phones/{number}/messages/{messageId}/edit": PUBLIC,
  "GET /simulator/{connectionId}/phones/{number}/messages/{messageId}/media": PUBLIC,
};

export function rankOf(actor: Pick<Actor, "profile" | "super">): number {
  return accessRank(actor);
}

/** The table's key for a route: Fastify's `:param` written as OpenAPI's `{param}`, without the /api prefix. */
export function accessKey(method: string, url: string): string {
  // Fastify answers HEAD with the GET route's handler, so HEAD is held to GET's level.
  return `${method === "HEAD" ? "GET" : method} ${url.replace(/^\/api(?=\/)/, "").replace(/:(\w+)/g, "{$1}")}`;
}

export function admits(access: Access, actor: Pick<Actor, "profile" | "super"> | null): boolean {
  return admitsLevel(access, actor);
}

/** onRequest check after authentication (see app.ts); routes outside the table keep only their own rules. */
export function enforceAccess(request: FastifyRequest): void {
  const access = ROUTE_ACCESS[accessKey(request.method, request.routeOptions.url ?? "")];
  if (access && access !== "public" && !admits(access, request.actor)) throw forbidden();
}
