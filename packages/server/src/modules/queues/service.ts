import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { DEFAULT_QUEUE_SCHEDULES, queueCreateBody, queueUpdateBody, type QueueDTO } from "@balcao/shared";
import type { z } from "zod";
import type { AppContext } from "../../context";
import { isUniqueViolation, type DbOrTx, type Tx } from "../../db/client";
import { companies, plans, queues } from "../../db/schema";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { queuePolicy } from "./policy";
import { presentQueue } from "./presenter";

type CreateInput = z.output<typeof queueCreateBody>;
type UpdateInput = z.output<typeof queueUpdateBody>;

/** The order of the queue page and of the bot's numbered queue menu: orderQueue, then creation. */
export const queueOrder = [sql`${queues.orderQueue} asc nulls last`, asc(queues.id)];

export class QueuesService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  async list(actor: Actor, companyId?: number): Promise<QueueDTO[]> {
    const scope = companyId && queuePolicy.readOtherCompany(actor) ? companyId : actor.companyId;
    const rows = await this.db
      .select()
      .from(queues)
      .where(eq(queues.companyId, scope))
      .orderBy(...queueOrder);
    return rows.map(presentQueue);
  }

  private async findScoped(db: DbOrTx, companyId: number, id: number) {
    const [row] = await db
      .select()
      .from(queues)
      .where(and(eq(queues.id, id), eq(queues.companyId, companyId)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_QUEUE_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<QueueDTO> {
    return presentQueue(await this.findScoped(this.db, actor.companyId, id));
  }

  /** Name and colour are unique in the company, compared ignoring case (the unique indexes back it up). */
  private async assertUnique(tx: Tx, companyId: number, input: { name?: string; color?: string }, exceptId?: number) {
    const others = (column: typeof queues.name | typeof queues.color, value: string) =>
      tx
        .select({ id: queues.id })
        .from(queues)
        .where(and(eq(queues.companyId, companyId), sql`lower(${column}) = lower(${value})`, exceptId ? ne(queues.id, exceptId) : undefined))
        .limit(1);
    if (input.color && (await others(queues.color, input.color)).length) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS", 400);
    if (input.name && (await others(queues.name, input.name)).length) throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS", 400);
  }

  async create(actor: Actor, input: CreateInput): Promise<QueueDTO> {
    if (!queuePolicy.write(actor)) throw forbidden();
    const created = await this.withUniqueGuard(() =>
      this.db.transaction(async (tx) => {
        // Locking the company row serialises concurrent creates, so the plan limit cannot be overrun.
        const [company] = await tx
          .select({ id: companies.id, planQueues: plans.queues })
          .from(companies)
          .leftJoin(plans, eq(plans.id, companies.planId))
          .where(eq(companies.id, actor.companyId))
          .for("update", { of: companies });
        if (!company) throw notFound("ERR_NO_COMPANY_FOUND");
        if (company.planQueues && company.planQueues > 0) {
          const [{ value }] = (await tx.select({ value: count() }).from(queues).where(eq(queues.companyId, actor.companyId))) as [{ value: number }];
          if (value >= company.planQueues) throw new AppError("ERR_QUEUE_LIMIT_REACHED", 400, { limit: company.planQueues });
        }
        await this.assertUnique(tx, actor.companyId, input);
        const [row] = await tx
          .insert(queues)
          .values({
            companyId: actor.companyId,
            name: input.name,
            color: input.color,
            greetingMessage: input.greetingMessage,
            outOfHoursMessage: input.outOfHoursMessage,
            complationMessage: input.complationMessage,
            ratingMessage: input.ratingMessage,
            schedules: input.schedules ?? DEFAULT_QUEUE_SCHEDULES,
            orderQueue: input.orderQueue ?? null,
          })
          .returning();
        return presentQueue(row!);
      }),
    );
    this.ctx.events.publish({ type: "queues.created", companyId: actor.companyId, queue: created });
    return created;
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<QueueDTO> {
    await this.findScoped(this.db, actor.companyId, id);
    if (!queuePolicy.write(actor)) throw forbidden();
    const updated = await this.withUniqueGuard(() =>
      this.db.transaction(async (tx) => {
        await this.assertUnique(tx, actor.companyId, input, id);
        const [row] = await tx
          .update(queues)
          .set({
            ...(input.name !== undefined && { name: input.name }),
            ...(input.color !== undefined && { color: input.color }),
            ...(input.greetingMessage !== undefined && { greetingMessage: input.greetingMessage }),
            ...(input.outOfHoursMessage !== undefined && { outOfHoursMessage: input.outOfHoursMessage }),
            ...(input.complationMessage !== undefined && { complationMessage: input.complationMessage }),
            ...(input.ratingMessage !== undefined && { ratingMessage: input.ratingMessage }),
            ...(input.schedules !== undefined && { schedules: input.schedules }),
            ...(input.orderQueue !== undefined && { orderQueue: input.orderQueue }),
            updatedAt: new Date(),
          })
          .where(and(eq(queues.id, id), eq(queues.companyId, actor.companyId)))
          .returning();
        return presentQueue(row!);
      }),
    );
    this.ctx.events.publish({ type: "queues.updated", companyId: actor.companyId, queue: updated });
    return updated;
  }

  /**
   * Deleting a queue removes its option tree and its user/connection links (foreign keys cascade);
   * its tickets keep their history and become queue-less ('SEM FILA').
   */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.findScoped(this.db, actor.companyId, id);
    if (!queuePolicy.write(actor)) throw forbidden();
    await this.db.delete(queues).where(and(eq(queues.id, id), eq(queues.companyId, actor.companyId)));
    this.ctx.events.publish({ type: "queues.deleted", companyId: actor.companyId, queueId: id });
  }

  private async withUniqueGuard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err, "queues_company_color_uq")) throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS", 400);
      if (isUniqueViolation(err, "queues_company_name_uq")) throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS", 400);
      throw err;
    }
  }
}
