import { z } from "zod";
import { idField } from "./common";
import { ticketDto, type TicketDTO } from "./tickets";

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

/** The text fields of `POST /messages/:ticketId` as multipart/form-data (the files come as `medias`). */
export const messageFormFields = z.object({
  body: z.string().max(MESSAGE_BODY_MAX).optional().describe("Text, or the caption of the first file"),
  quotedMsg: z.string().regex(/^\d+$/).optional().describe("Id of the message this one answers"),
  voice: z.enum(["true", "false"]).optional().describe("`true`: the (single) audio file is a voice note"),
});

export const quotedMessageDto = z.object({
  id: z.number().int(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.string(),
  isDeleted: z.boolean(),
});
export type QuotedMessageDTO = z.infer<typeof quotedMessageDto>;

/** Reactions to a message, one chip per emoji (issue 21). `fromMe`: the company's own reaction is among them. */
export const messageReactionDto = z.object({
  emoji: z.string(),
  count: z.number().int().min(1),
  fromMe: z.boolean(),
});
export type MessageReactionDTO = z.infer<typeof messageReactionDto>;

/** A text an edited message had before, and when it was replaced (issue 21). */
export const messageEditDto = z.object({ body: z.string(), editedAt: z.string() });
export type MessageEditDTO = z.infer<typeof messageEditDto>;

export const messageDto = z.object({
  id: z.number().int(),
  ticketId: z.number().int(),
  contactId: z.number().int().nullable(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.string(),
  /** Authorised URL of the file (fetch with the bearer token), or null. */
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  mimeType: z.string().nullable(),
  quotedMsg: quotedMessageDto.nullable(),
  read: z.boolean(),
  /** 0 pending, 1 sent, 2 delivered, 3 read, 4 played. */
  ack: z.number().int(),
  isDeleted: z.boolean(),
  /** Outbound delivery: pending, sent or failed (failed ones can be retried). */
  status: z.enum(["pending", "sent", "failed"]),
  /** Why the provider failed it (e.g. the Cloud API's "(#131026) Message undeliverable"), when it said. */
  failureReason: z.string().optional(),
  /** Sender's name inside a group. */
  participant: z.string().nullable(),
  createdAt: z.string(),
  contact: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Reactions grouped by emoji, most given first (always sent by the server; [] when none). */
  reactions: z.array(messageReactionDto).optional(),
  /** When the text was last edited; null (or absent) when never edited. */
  editedAt: z.string().nullable().optional(),
  /** Earlier texts of an edited message, oldest first (absent when never edited). */
  edits: z.array(messageEditDto).optional(),
});
export type MessageDTO = z.infer<typeof messageDto>;

export const messageListResponse = z.object({
  /** Oldest first within the page, pages go back in time. Spans the contact's tickets on the connection. */
  messages: z.array(messageDto),
  hasMore: z.boolean(),
  ticket: ticketDto,
});
export type MessageListResponse = z.infer<typeof messageListResponse>;

/** Socket `appMessage` payloads (spec §7). */
export type AppMessageEvent =
  { action: "create"; message: MessageDTO; ticket: TicketDTO; contact: TicketDTO["contact"] } | { action: "update"; message: MessageDTO };
