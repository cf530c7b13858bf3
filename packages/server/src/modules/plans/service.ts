import { and, asc, count, eq, getTableColumns, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import { planCreateBody, planUpdateBody, type PlanDTO, type PlanWithUsageDTO } from "@balcao/shared";
import type { AppContext } from "../../context";
import { isUniqueViolation, type Tx } from "../../db/client";
import { companies, plans } from "../../db/schema";
import { AppError, notFound } from "../../http/errors";
import { requireSuper } from "../../http/auth";
import type { Actor } from "../auth/service";
import { presentPlan, presentPlanWithUsage } from "./presenter";

type CreateInput = z.output<typeof planCreateBody>;
type UpdateInput = z.output<typeof planUpdateBody>;

/** How many companies use the plan, as a correlated count (companies_plan_idx): no N+1 on /plans/all. */
// Spelled out: in a one-table select drizzle leaves columns unqualified, which would not correlate.
const companiesCount = sql<number>`(select count(*) from "companies" where "companies"."plan_id" = "plans"."id")`.mapWith(Number);

/**
 * Plans are platform data (no company): everyone may list them (sign-up needs them before login), only
 * super users change them. A plan's limits apply to every company on it, checked when users, connections
 * and queues are created; lowering a limit removes nothing, it stops further creation.
 */
export class PlansService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  async listPublic(): Promise<PlanDTO[]> {
    const rows = await this.db.select().from(plans).orderBy(asc(plans.value), asc(plans.id)).limit(500);
    return rows.map(presentPlan);
  }

  async listAll(actor: Actor): Promise<PlanWithUsageDTO[]> {
    requireSuper(actor);
    const rows = await this.db
      .select({ ...getTableColumns(plans), companiesCount })
      .from(plans)
      .orderBy(asc(plans.value), asc(plans.id))
      .limit(500);
    return rows.map(({ companiesCount: used, ...p }) => presentPlanWithUsage(p, used));
  }

  async show(actor: Actor, id: number): Promise<PlanWithUsageDTO> {
    requireSuper(actor);
    const [row] = await this.db
      .select({ ...getTableColumns(plans), companiesCount })
      .from(plans)
      .where(eq(plans.id, id))
      .limit(1);
    if (!row) throw notFound("ERR_NO_PLAN_FOUND");
    const { companiesCount: used, ...p } = row;
    return presentPlanWithUsage(p, used);
  }

  private async assertNameFree(tx: Tx, name: string, exceptId?: number): Promise<void> {
    const [taken] = await tx
      .select({ id: plans.id })
      .from(plans)
      .where(and(sql`lower(${plans.name}) = lower(${name})`, exceptId ? ne(plans.id, exceptId) : undefined))
      .limit(1);
    if (taken) throw new AppError("ERR_DUPLICATED_PLAN");
  }

  private async withNameGuard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err, "plans_name_uq")) throw new AppError("ERR_DUPLICATED_PLAN");
      throw err;
    }
  }

  async create(actor: Actor, input: CreateInput): Promise<PlanWithUsageDTO> {
    requireSuper(actor);
    const row = await this.withNameGuard(() =>
      this.db.transaction(async (tx) => {
        await this.assertNameFree(tx, input.name);
        const [inserted] = await tx.insert(plans).values(input).returning();
        return inserted!;
      }),
    );
    return presentPlanWithUsage(row, 0);
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<PlanWithUsageDTO> {
    requireSuper(actor);
    await this.withNameGuard(() =>
      this.db.transaction(async (tx) => {
        if (input.name !== undefined) await this.assertNameFree(tx, input.name, id);
        const [updated] = await tx
          .update(plans)
          .set({ ...input, updatedAt: new Date() })
          .where(eq(plans.id, id))
          .returning({ id: plans.id });
        if (!updated) throw notFound("ERR_NO_PLAN_FOUND");
      }),
    );
    return this.show(actor, id);
  }

  /** A plan some company is on cannot go (409 with how many): moving those companies first is a deliberate act. */
  async remove(actor: Actor, id: number): Promise<void> {
    requireSuper(actor);
    await this.db.transaction(async (tx) => {
      // The row lock makes a concurrent company create/update on this plan (FOR SHARE) wait for the verdict.
      const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.id, id)).for("update");
      if (!plan) throw notFound("ERR_NO_PLAN_FOUND");
      const [{ value: used }] = (await tx.select({ value: count() }).from(companies).where(eq(companies.planId, id))) as [{ value: number }];
      if (used > 0) throw new AppError("ERR_PLAN_IN_USE", undefined, { companies: used });
      await tx.delete(plans).where(eq(plans.id, id));
    });
  }
}

/** The plan a company is being put on, locked against deletion until the transaction ends. */
export async function lockPlanForUse(tx: Tx, planId: number): Promise<{ id: number }> {
  const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.id, planId)).for("share");
  if (!plan) throw new AppError("ERR_NO_PLAN_FOUND", 400);
  return plan;
}
