import type { TagDTO } from "@balcao/shared";
import type { tags } from "../../db/schema";

type TagRow = typeof tags.$inferSelect;

export function presentTag(t: TagRow, ticketsCount?: number): TagDTO {
  return {
    id: t.id,
    companyId: t.companyId,
    name: t.name,
    color: t.color,
    kanban: t.kanban === 1 ? 1 : 0,
    userId: t.userId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
    ...(ticketsCount !== undefined && { ticketsCount }),
  };
}
