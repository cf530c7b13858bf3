import type { FastifyReply, FastifyRequest } from "fastify";
import { isAdmin, isSuper } from "@balcao/shared";
import type { Actor, AuthService } from "../modules/auth/service";
import { AppError, forbidden } from "./errors";

declare module "fastify" {
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** The route lets an expired company's admin pay (billing-only session, issue 13). */
    allowExpiredSubscription?: boolean;
  }
}

/** Reached by a billing-only session besides the routes flagged `allowExpiredSubscription` (the app shell needs them). */
const BILLING_ONLY_SHELL = [/\/auth\/me$/];

/** Whether a signed-in route answers 402 ERR_SUBSCRIPTION_EXPIRED to a company whose subscription is overdue. */
export function refusesBillingOnly(url: string, config: { allowExpiredSubscription?: boolean } | undefined): boolean {
  return !config?.allowExpiredSubscription && !BILLING_ONLY_SHELL.some((pattern) => pattern.test(url));
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : undefined;
}

/** preHandler that loads `request.actor` or fails with 401/402/403 per docs/api.md. */
export function authenticate(auth: AuthService) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const actor = await auth.authenticate(bearerToken(request), { allowBillingOnly: true });
    if (actor.billingOnly && refusesBillingOnly(request.routeOptions.url ?? "", request.routeOptions.config)) {
      throw new AppError("ERR_SUBSCRIPTION_EXPIRED", 402, actor.billingOnly.dueDate ? { dueDate: actor.billingOnly.dueDate } : undefined);
    }
    request.actor = actor;
  };
}

/** The authenticated actor; routes behind `authenticate` always have one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error("route is missing the authenticate preHandler");
  return request.actor;
}

export function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor)) throw forbidden();
}

export function requireSuper(actor: Actor): void {
  if (!isSuper(actor)) throw forbidden();
}
