import type { QueueDTO, QueueOptionDTO, WeeklySlotDTO } from "@balcao/shared";
import type { queueOptions, queues } from "../../db/schema";

type QueueRow = typeof queues.$inferSelect;
type OptionRow = typeof queueOptions.$inferSelect;

export function presentQueue(q: QueueRow): QueueDTO {
  return {
    id: q.id,
    companyId: q.companyId,
    name: q.name,
    color: q.color,
    greetingMessage: q.greetingMessage,
    outOfHoursMessage: q.outOfHoursMessage,
    complationMessage: q.complationMessage,
    ratingMessage: q.ratingMessage,
    schedules: (q.schedules ?? []) as WeeklySlotDTO[],
    orderQueue: q.orderQueue,
    createdAt: q.createdAt.toISOString(),
    updatedAt: q.updatedAt.toISOString(),
  };
}

/** Sibling order everywhere (editor and bot): by option number, then creation. */
export function compareOptions(a: Pick<OptionRow, "option" | "id">, b: Pick<OptionRow, "option" | "id">): number {
  return Number(a.option) - Number(b.option) || a.id - b.id;
}

/** Builds the DTO trees of a queue's options from one flat query (no N+1). */
export function presentOptionTree(rows: OptionRow[]): { roots: QueueOptionDTO[]; byId: Map<number, QueueOptionDTO> } {
  const byId = new Map<number, QueueOptionDTO>();
  const sorted = [...rows].sort(compareOptions);
  for (const o of sorted)
    byId.set(o.id, {
      id: o.id,
      queueId: o.queueId,
      parentId: o.parentId,
      title: o.title,
      message: o.message,
      option: o.option,
      children: [],
      createdAt: o.createdAt.toISOString(),
      updatedAt: o.updatedAt.toISOString(),
    });
  const roots: QueueOptionDTO[] = [];
  for (const o of sorted) {
    const dto = byId.get(o.id)!;
    const parent = o.parentId === null ? undefined : byId.get(o.parentId);
    if (parent) parent.children.push(dto);
    else roots.push(dto);
  }
  return { roots, byId };
}
