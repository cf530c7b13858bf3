import { z } from "zod";
import { MESSAGE_BODY_MAX, messageDto } from "./messages";

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

/** The text fields of the send API as multipart/form-data (the files come as `medias`). */
export const sendApiFormFields = z.object({
  number: sendApiBody.shape.number.describe("Number without mask, e.g. 5511987654321"),
  body: z.string().max(MESSAGE_BODY_MAX).optional().describe("Text, or the caption of the first file"),
});

/** The reference's `{ mensagem }`, plus where the message went. */
export const sendApiResponse = z.object({
  mensagem: z.literal("Mensagem enviada"),
  contactId: z.number().int(),
  ticketId: z.number().int(),
  messages: z.array(messageDto),
});
export type SendApiResponse = z.infer<typeof sendApiResponse>;
