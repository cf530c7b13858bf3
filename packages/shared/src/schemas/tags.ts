import { z } from "zod";
import { blankAsUnset, idField, listQuery, MSG } from "./common";

/** Spec §5: name required ('Obrigatório'), at least 3 ('Mensagem muito curta'). */
export const tagNameField = z
  .string({ error: MSG.obrigatorio })
  .trim()
  .min(1, { message: MSG.obrigatorio, abort: true })
  .min(3, MSG.mensagemCurta)
  .max(50, MSG.tooLong);

export const tagColorField = z
  .string({ error: MSG.obrigatorio })
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, "Invalid color");

/** 0/1 as the spec keeps it; booleans and "0"/"1" from forms are accepted. */
export const tagKanbanField = z
  .union([z.literal(0), z.literal(1), z.boolean(), z.enum(["0", "1"])])
  .transform((v): 0 | 1 => (v === 1 || v === true || v === "1" ? 1 : 0));

export const tagCreateBody = z.object({
  name: tagNameField,
  /** Omitted or "" (the ticket header creates tags by name only; the tags page's form when no colour is picked): a palette colour derived from the name. */
  color: blankAsUnset(tagColorField),
  /** Only admins and supervisors may set 1. */
  kanban: tagKanbanField.optional(),
});
export type TagCreateBody = z.input<typeof tagCreateBody>;

export const tagUpdateBody = z.object({
  name: tagNameField.optional(),
  /** "" keeps the current colour. */
  color: blankAsUnset(tagColorField),
  kanban: tagKanbanField.optional(),
});
export type TagUpdateBody = z.input<typeof tagUpdateBody>;

export const tagListQuery = listQuery;

/** POST /tags/sync: the ticket's tags become exactly these (extra fields of each tag are ignored). */
export const tagSyncBody = z.object({
  ticketId: idField,
  tags: z.array(z.object({ id: idField })).max(100),
});
export type TagSyncBody = z.input<typeof tagSyncBody>;

export const ticketTagParams = z.object({ ticketId: idField, tagId: idField });
export const ticketTagsParams = z.object({ ticketId: idField });

export const tagDto = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  color: z.string(),
  kanban: z.union([z.literal(0), z.literal(1)]),
  userId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Tickets carrying the tag (GET /tags/ and GET /tags/:id). */
  ticketsCount: z.number().int().optional(),
});
export type TagDTO = z.infer<typeof tagDto>;

export const tagListResponse = z.object({ tags: z.array(tagDto), hasMore: z.boolean() });
export type TagListResponse = z.infer<typeof tagListResponse>;

export const tagKanbanResponse = z.object({ lista: z.array(tagDto) });
export type TagKanbanResponse = z.infer<typeof tagKanbanResponse>;

/** A ticket's tags after POST /tags/sync, PUT /ticket-tags/:ticketId/:tagId or DELETE /ticket-tags/:ticketId. */
export const ticketTagsResponse = z.object({ ticketId: z.number().int(), tags: z.array(tagDto) });
export type TicketTagsResponse = z.infer<typeof ticketTagsResponse>;
