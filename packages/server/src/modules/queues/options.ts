import { and, eq } from "drizzle-orm";
import { queueOptionCreateBody, queueOptionUpdateBody, type QueueOptionDTO } from "@balcao/shared";
import type { z } from "zod";
import type { AppContext } from "../../context";
import type { DbOrTx, Tx } from "../../db/client";
import { queueOptions, queues } from "../../db/schema";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { queuePolicy } from "./policy";
import { presentOptionTree } from "./presenter";

type CreateInput = z.output<typeof queueOptionCreateBody>;
type UpdateInput = z.output<typeof queueOptionUpdateBody>;
type OptionRow = typeof queueOptions.$inferSelect;

const MAX_OPTION = 999;

/** All options of one queue of one company, in one query. */
export function loadQueueOptions(db: DbOrTx, companyId: number, queueId: number): Promise<OptionRow[]> {
  return db
    .select()
    .from(queueOptions)
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.queueId, queueId)));
}

/** The chatbot's option trees (spec §3 Queue option): any depth, every id scoped by company and queue. */
export class QueueOptionsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  /** Locks the queue row: option writes of one queue are serialised (numbering stays unambiguous). */
  private async lockQueue(tx: Tx, companyId: number, queueId: number, status: 400 | 404) {
    const [q] = await tx
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.id, queueId), eq(queues.companyId, companyId)))
      .for("update");
    if (!q) throw new AppError("ERR_NO_QUEUE_FOUND", status);
  }

  /**
   * `parentId` undefined or null: the root options, each with its whole subtree; an id: that option's
   * children (each with its subtree). Ordered by option number.
   */
  async list(actor: Actor, queueId: number, parentId: number | null | undefined): Promise<QueueOptionDTO[]> {
    const [q] = await this.db
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.id, queueId), eq(queues.companyId, actor.companyId)))
      .limit(1);
    if (!q) throw notFound("ERR_NO_QUEUE_FOUND");
    const { roots, byId } = presentOptionTree(await loadQueueOptions(this.db, actor.companyId, queueId));
    if (parentId === undefined || parentId === null) return roots;
    const parent = byId.get(parentId);
    if (!parent) throw notFound("ERR_NO_QUEUE_OPTION_FOUND");
    return parent.children;
  }

  private async findScoped(db: DbOrTx, companyId: number, id: number): Promise<OptionRow> {
    const [row] = await db
      .select()
      .from(queueOptions)
      .where(and(eq(queueOptions.id, id), eq(queueOptions.companyId, companyId)))
      .limit(1);
    if (!row) throw notFound("ERR_NO_QUEUE_OPTION_FOUND");
    return row;
  }

  async show(actor: Actor, id: number): Promise<QueueOptionDTO> {
    const row = await this.findScoped(this.db, actor.companyId, id);
    const { byId } = presentOptionTree(await loadQueueOptions(this.db, actor.companyId, row.queueId));
    return byId.get(id)!;
  }

  /** The parent must be an option of the same queue (and, when moving, not the option itself or below it). */
  private assertParent(siblingsOfQueue: OptionRow[], parentId: number | null, movingId?: number): void {
    if (parentId === null) return;
    const byId = new Map(siblingsOfQueue.map((o) => [o.id, o]));
    let cursor = byId.get(parentId);
    if (!cursor) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND", 400);
    for (let depth = 0; cursor && depth <= siblingsOfQueue.length; depth++) {
      if (cursor.id === movingId) throw new AppError("ERR_NO_QUEUE_OPTION_FOUND", 400);
      cursor = cursor.parentId === null ? undefined : byId.get(cursor.parentId);
    }
  }

  private nextNumber(all: OptionRow[], parentId: number | null): string {
    const used = all.filter((o) => o.parentId === parentId).map((o) => Number(o.option));
    const next = (used.length ? Math.max(...used) : 0) + 1;
    if (next > MAX_OPTION) throw new AppError("ERR_QUEUE_OPTION_ALREADY_EXISTS", 400);
    return String(next);
  }

  private assertFreeNumber(all: OptionRow[], parentId: number | null, option: string, exceptId?: number): void {
    if (all.some((o) => o.parentId === parentId && o.option === option && o.id !== exceptId))
      throw new AppError("ERR_QUEUE_OPTION_ALREADY_EXISTS", 400);
  }

  async create(actor: Actor, input: CreateInput): Promise<QueueOptionDTO> {
    if (!queuePolicy.write(actor)) throw forbidden();
    const id = await this.db.transaction(async (tx) => {
      await this.lockQueue(tx, actor.companyId, input.queueId, 400);
      const all = await loadQueueOptions(tx, actor.companyId, input.queueId);
      this.assertParent(all, input.parentId);
      const option = input.option ?? this.nextNumber(all, input.parentId);
      this.assertFreeNumber(all, input.parentId, option);
      const [row] = await tx
        .insert(queueOptions)
        .values({ companyId: actor.companyId, queueId: input.queueId, parentId: input.parentId, title: input.title, message: input.message, option })
        .returning({ id: queueOptions.id });
      return row!.id;
    });
    return this.show(actor, id);
  }

  async update(actor: Actor, id: number, input: UpdateInput): Promise<QueueOptionDTO> {
    const current = await this.findScoped(this.db, actor.companyId, id);
    if (!queuePolicy.write(actor)) throw forbidden();
    await this.db.transaction(async (tx) => {
      await this.lockQueue(tx, actor.companyId, current.queueId, 404);
      const all = await loadQueueOptions(tx, actor.companyId, current.queueId);
      const parentId = input.parentId === undefined ? current.parentId : input.parentId;
      if (input.parentId !== undefined) this.assertParent(all, parentId, id);
      const option = input.option ?? (parentId === current.parentId ? current.option : this.nextNumber(all, parentId));
      this.assertFreeNumber(all, parentId, option, id);
      await tx
        .update(queueOptions)
        .set({
          parentId,
          option,
          ...(input.title !== undefined && { title: input.title }),
          ...(input.message !== undefined && { message: input.message }),
          updatedAt: new Date(),
        })
        .where(and(eq(queueOptions.id, id), eq(queueOptions.companyId, actor.companyId)));
    });
    return this.show(actor, id);
  }

  /** Deletes the option and its whole subtree (the foreign key cascades). */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.findScoped(this.db, actor.companyId, id);
    if (!queuePolicy.write(actor)) throw forbidden();
    await this.db.delete(queueOptions).where(and(eq(queueOptions.id, id), eq(queueOptions.companyId, actor.companyId)));
  }
}
