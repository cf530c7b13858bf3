import type { CompanyDTO, Recurrence } from "@balcao/shared";
import { isRecurrence } from "@balcao/shared";
import type { companies, plans } from "../../db/schema";

type CompanyRow = typeof companies.$inferSelect;
type PlanRef = Pick<typeof plans.$inferSelect, "id" | "name" | "value">;

export function presentCompany(c: CompanyRow, plan: PlanRef | null): CompanyDTO {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    planId: c.planId,
    plan: plan ? { id: plan.id, name: plan.name, value: Number(plan.value) } : null,
    status: c.status,
    campaignsEnabled: c.campaignsEnabled,
    dueDate: c.dueDate,
    recurrence: (isRecurrence(c.recurrence) ? c.recurrence : "MENSAL") as Recurrence,
    timeZone: c.timeZone,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
