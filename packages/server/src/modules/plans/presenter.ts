import type { PlanDTO, PlanWithUsageDTO } from "@balcao/shared";
import type { plans } from "../../db/schema";

type PlanRow = typeof plans.$inferSelect;

export function presentPlan(p: PlanRow): PlanDTO {
  return { id: p.id, name: p.name, users: p.users, connections: p.connections, queues: p.queues, value: Number(p.value) };
}

export function presentPlanWithUsage(p: PlanRow, companiesCount: number): PlanWithUsageDTO {
  return { ...presentPlan(p), companiesCount };
}
