import { z } from "zod";
import { idField, MSG } from "./common";

export const ticketNoteCreateBody = z.object({
  note: z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio).min(2, MSG.mensagemCurta).max(5000, MSG.tooLong),
  ticketId: idField,
  contactId: idField,
});
export type TicketNoteCreateBody = z.input<typeof ticketNoteCreateBody>;

export const ticketNoteListQuery = z.object({ ticketId: idField.optional(), contactId: idField.optional() });

export interface TicketNoteDTO {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
}
