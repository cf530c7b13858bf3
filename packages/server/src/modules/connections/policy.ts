import { can } from "@balcao/shared";
import type { Actor } from "../auth/service";

/** Spec §6 rules for connections, as pure predicates (the service turns a `false` into 403). */
export const connectionPolicy = {
  /** Every signed-in user of the company may list connections (names, statuses; no QR, no token). */
  view: (actor: Actor) => !!actor,
  /** QR strings and send-API tokens. */
  viewSecrets: (actor: Actor) => can(actor, "connections-page:actionButtons"),
  create: (actor: Actor) => can(actor, "connections-page:addConnection"),
  edit: (actor: Actor) => can(actor, "connections-page:editOrDeleteConnection"),
  remove: (actor: Actor) => can(actor, "connections-page:editOrDeleteConnection"),
  /** Start / new QR / disconnect (POST, PUT, DELETE /whatsappsession/:id). */
  operateSession: (actor: Actor) => can(actor, "connections-page:actionButtons"),
};
