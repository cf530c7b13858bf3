import type { QuickMessageDTO } from "@balcao/shared";
import type { quickMessages } from "../../db/schema";

export function presentQuickMessage(q: typeof quickMessages.$inferSelect): QuickMessageDTO {
  return {
    id: q.id,
    companyId: q.companyId,
    shortcode: q.shortcode,
    message: q.message,
    userId: q.userId,
    createdAt: q.createdAt.toISOString(),
    updatedAt: q.updatedAt.toISOString(),
  };
}
