import { z } from "zod";
import { MESSAGE_BODY_MAX, type MessageDTO } from "./messages";

/** Longest `Idempotency-Key` header the send API accepts. */
export const IDEMPOTENCY_KEY_MAX = 200;

/**
 * `POST /api/messages/send` (spec §7) as JSON; a multipart request carries the same fields plus files
 * `medias`. The number is typed without mask (country code, area code, number: spec §9) and normalised like
 * a contact's.
 */
export const sendApiBody = z.object({
  number: z.string({ error: "O número é obrigatório" }).trim().min(1, "O número é obrigatório").max(40, "Este não é um número de WhatsApp válido"),
  body: z.string().max(MESSAGE_BODY_MAX).optional().default(""),
});
export type SendApiBody = z.input<typeof sendApiBody>;

/** The reference's `{ mensagem }`, plus where the message went. */
export interface SendApiResponse {
  mensagem: "Mensagem enviada";
  contactId: number;
  ticketId: number;
  messages: MessageDTO[];
}
