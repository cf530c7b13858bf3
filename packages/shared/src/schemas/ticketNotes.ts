import { z } from "zod";
import { idField, MSG } from "./common";

export const ticketNoteCreateBody = z.object({
  note: z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio).min(2, MSG.mensagemCurta).max(5000, MSG.tooLong),
  ticketId: idField,
  contactId: idField,
});
export type TicketNoteCreateBody = z.input<typeof ticketNoteCreateBody>;

export const ticketNoteListQuery = z.object({ ticketId: idField.optional(), contactId: idField.optional() });

export const ticketNoteDto = z.object({
  id: z.number(),
  note: z.string(),
  ticketId: z.number(),
  contactId: z.number(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type TicketNoteDTO = z.infer<typeof ticketNoteDto>;
