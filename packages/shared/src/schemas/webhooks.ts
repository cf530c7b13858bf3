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

export interface WebhookDTO {
  id: number;
  url: string;
  events: WebhookEventName[];
  secret: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export type WebhookDeliveryStatus = "pending" | "retrying" | "delivered" | "failed";

export interface WebhookDeliveryDTO {
  id: number;
  webhookId: number;
  event: WebhookEventName;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastResponse: string | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export interface WebhookDeliveryListResponse {
  deliveries: WebhookDeliveryDTO[];
  hasMore: boolean;
}

export const webhookDeliveriesQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
