import { z } from "zod";

/** Events an outgoing webhook may subscribe to (issue 19). */
export const WEBHOOK_EVENTS = [
  "message.received",
  "message.sent",
  "message.ack",
  "ticket.created",
  "ticket.updated",
  "ticket.closed",
  "contact.created",
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** Header names of a delivery: the signature is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = "X-Balcao-Signature";
export const WEBHOOK_EVENT_HEADER = "X-Balcao-Event";
export const WEBHOOK_DELIVERY_HEADER = "X-Balcao-Delivery";

export const webhookBody = z.object({
  url: z
    .string()
    .trim()
    .min(1, "Obrigatório")
    .max(2000, "Too Long!")
    .refine((value) => {
      try {
        const u = new URL(value);
        return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password;
      } catch {
        return false;
      }
    }, "URL inválida"),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, "Selecione pelo menos um evento"),
  active: z.boolean().optional().default(true),
});
export type WebhookBody = z.input<typeof webhookBody>;

export const webhookDto = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  secret: z.string(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookDTO = z.infer<typeof webhookDto>;

export type WebhookDeliveryStatus = "pending" | "retrying" | "delivered" | "failed";

export const webhookDeliveryDto = z.object({
  id: z.number(),
  webhookId: z.number(),
  event: z.enum(WEBHOOK_EVENTS),
  status: z.enum(["pending", "retrying", "delivered", "failed"]),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastResponse: z.string().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDeliveryDTO = z.infer<typeof webhookDeliveryDto>;

export const webhookDeliveryListResponse = z.object({
  deliveries: z.array(webhookDeliveryDto),
  hasMore: z.boolean(),
});
export type WebhookDeliveryListResponse = z.infer<typeof webhookDeliveryListResponse>;

export const webhookDeliveriesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
