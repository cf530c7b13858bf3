import { asc } from "drizzle-orm";
import type { PlanDTO } from "@balcao/shared";
import type { App } from "../../app";
import { plans } from "../../db/schema";

export function presentPlan(p: typeof plans.$inferSelect): PlanDTO {
  return { id: p.id, name: p.name, users: p.users, connections: p.connections, queues: p.queues, value: Number(p.value) };
}

export function registerPlanRoutes(app: App): void {
  // Public: the sign-up page needs the plans before anyone is logged in.
  app.get("/plans/list", { schema: { tags: ["plans"] } }, async () => {
    const rows = await app.ctx.database.db.select().from(plans).orderBy(asc(plans.value), asc(plans.id));
    return rows.map(presentPlan);
  });
}
