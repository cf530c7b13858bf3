import { z } from "zod";
import { idField } from "./common";
import type { TicketDTO } from "./tickets";

export const MESSAGE_BODY_MAX = 4096;
export const MESSAGES_PAGE_SIZE = 20;

export const ticketIdParams = z.object({ ticketId: idField });

export const messageListQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  /** Keyset alternative to pageNumber: the page of messages older than this one. */
  beforeId: idField.optional(),
});

/** JSON send (spec §7). `quotedMsg` may be the quoted message or its id. read/fromMe/mediaUrl are accepted and ignored. */
export const messageSendBody = z.object({
  body: z.string().max(MESSAGE_BODY_MAX).optional().default(""),
  quotedMsg: z.union([idField, z.object({ id: idField }).transform((q) => q.id)]).nullish(),
  read: z.unknown().optional(),
  fromMe: z.unknown().optional(),
  mediaUrl: z.unknown().optional(),
});
export type MessageSendBody = z.input<typeof messageSendBody>;

export interface QuotedMessageDTO {
  id: number;
  body: string;
  fromMe: boolean;
  mediaType: string;
  isDeleted: boolean;
}

export interface MessageDTO {
  id: number;
  ticketId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  mediaType: string;
  /** Authorised URL of the file (fetch with the bearer token), or null. */
  mediaUrl: string | null;
  mediaName: string | null;
  mimeType: string | null;
  quotedMsg: QuotedMessageDTO | null;
  read: boolean;
  /** 0 pending, 1 sent, 2 delivered, 3 read, 4 played. */
  ack: number;
  isDeleted: boolean;
  /** Outbound delivery: pending, sent or failed (failed ones can be retried). */
  status: "pending" | "sent" | "failed";
  /** Why the provider failed it (e.g. the Cloud API's "(#131026) Message undeliverable"), when it said. */
  failureReason?: string;
  /** Sender's name inside a group. */
  participant: string | null;
  createdAt: string;
  contact: { id: number; name: string } | null;
}

export interface MessageListResponse {
  /** Oldest first within the page; pages go back in time. Spans the contact's tickets on the connection. */
  messages: MessageDTO[];
  hasMore: boolean;
  ticket: TicketDTO;
}

/** Socket `appMessage` payloads (spec §7). */
export type AppMessageEvent =
  { action: "create"; message: MessageDTO; ticket: TicketDTO; contact: TicketDTO["contact"] } | { action: "update"; message: MessageDTO };
