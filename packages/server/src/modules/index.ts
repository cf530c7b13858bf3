import type { App } from "../app";
import type { EventDelivery } from "../realtime/rooms";
import { deliverAuthEvents } from "./auth/events";
import { registerAuthRoutes } from "./auth/routes";
import { registerCompanyRoutes } from "./companies/routes";
import { registerHealthRoutes } from "./health/routes";
import { registerPlanRoutes } from "./plans/routes";
import { deliverSettingEvents } from "./settings/events";
import { registerSettingRoutes } from "./settings/routes";
import { deliverUserEvents } from "./users/events";
import { registerUserRoutes } from "./users/routes";
import { deliverTicketEvents } from "./tickets/events";
import { registerTicketRoutes } from "./tickets/routes";

/** One entry per domain: its REST routes (under /api) and how its events reach sockets. */
export interface AppModule {
  name: string;
  routes?: (app: App) => void;
  deliver?: EventDelivery;
}

export const modules: AppModule[] = [
  { name: "health", routes: registerHealthRoutes },
  { name: "auth", routes: registerAuthRoutes, deliver: deliverAuthEvents },
  { name: "companies", routes: registerCompanyRoutes },
  { name: "plans", routes: registerPlanRoutes },
  { name: "users", routes: registerUserRoutes, deliver: deliverUserEvents },
  { name: "settings", routes: registerSettingRoutes, deliver: deliverSettingEvents },
  { name: "tickets", routes: registerTicketRoutes, deliver: deliverTicketEvents },
];
