import { z } from "zod";
import { boundedText, idField, listQuery } from "./common";

/** Spec §5: shortcode 3 to 50, message 3 to 1000, both required. */
export const quickMessageBody = z.object({
  shortcode: boundedText(3, 50),
  message: boundedText(3, 1000),
});
export type QuickMessageBody = z.input<typeof quickMessageBody>;

export const quickMessageUpdateBody = quickMessageBody.partial();
export type QuickMessageUpdateBody = z.input<typeof quickMessageUpdateBody>;

export const quickMessageListQuery = listQuery;
/** Spec §7 sends companyId and userId; both are ignored except companyId for super users. */
export const quickMessageListSimpleQuery = z.object({ companyId: idField.optional(), userId: z.unknown().optional() });

export const quickMessageDto = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  shortcode: z.string(),
  message: z.string(),
  /** The author; null when that user was deleted. */
  userId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type QuickMessageDTO = z.infer<typeof quickMessageDto>;

export const quickMessageListResponse = z.object({ records: z.array(quickMessageDto), hasMore: z.boolean() });
export type QuickMessageListResponse = z.infer<typeof quickMessageListResponse>;
