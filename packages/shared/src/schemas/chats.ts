import { z } from "zod";
import { idField, listQuery, MSG } from "./common";

/** Internal staff chat (spec §2, §3 Internal chat / Chat message, §5, §6, §7, §9). */
export const CHAT_MSG = {
  titleRequired: "Por favor, preencha o título da conversa.",
  usersRequired: "Por favor, selecione pelo menos um usuário.",
} as const;

export const CHAT_TITLE_MAX = 200;
export const CHAT_MESSAGE_MAX = 4096;
/** Messages per page of GET /chats/:id/messages. */
export const CHAT_MESSAGES_PAGE_SIZE = 20;
/** Spec §9: the message pane loads older messages when scrolled under 600px from the top. */
export const CHAT_LOAD_OLDER_PX = 600;

const titleField = z.string({ error: CHAT_MSG.titleRequired }).trim().min(1, CHAT_MSG.titleRequired).max(CHAT_TITLE_MAX, MSG.tooLong);

/**
 * The members: the spec's client sends `users: [{ id }, …]` (user objects); plain ids are taken too. At least
 * one (the owner is always a member besides them).
 */
const usersField = z.preprocess(
  (v) => (Array.isArray(v) ? v.map((u) => (u && typeof u === "object" && "id" in u ? (u as { id: unknown }).id : u)) : v),
  z.array(idField, { error: CHAT_MSG.usersRequired }).min(1, CHAT_MSG.usersRequired).max(500, MSG.tooLong),
);

export const chatCreateBody = z.object({ title: titleField, users: usersField });
export type ChatCreateBody = z.input<typeof chatCreateBody>;

/** PUT sends the dialog again; a field left out keeps its value. */
export const chatUpdateBody = z.object({ title: titleField.optional(), users: usersField.optional() });
export type ChatUpdateBody = z.input<typeof chatUpdateBody>;

/** Blank (after trimming) is not sent (spec §5). */
export const chatMessageBody = z.object({
  message: z.string({ error: MSG.obrigatorio }).trim().min(1, MSG.obrigatorio).max(CHAT_MESSAGE_MAX, MSG.tooLong),
});
export type ChatMessageBody = z.input<typeof chatMessageBody>;

/**
 * GET /chats/:id/messages: keyset pages, newest first. `before` is the id of the oldest message the client
 * holds (the next page is older than it); the spec's `pageNumber` (20 per page) still works without it.
 */
export const chatMessagesQuery = z.object({
  before: idField.optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

/** POST /chats/:id/read: the spec's client sends `userId`; the caller is always the reader (the field is ignored). */
export const chatReadBody = z.object({ userId: z.unknown().optional() }).optional();

export const chatListQuery = listQuery;

export const chatUserDto = z.object({
  userId: z.number(),
  unreads: z.number(),
  user: z.object({ id: z.number(), name: z.string() }),
});
export type ChatUserDTO = z.infer<typeof chatUserDto>;

export const chatDto = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number().nullable(),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Every member (the owner included) with their unread counts. */
  users: z.array(chatUserDto),
});
export type ChatDTO = z.infer<typeof chatDto>;

export const chatMessageDto = z.object({
  id: z.number(),
  chatId: z.number(),
  senderId: z.number().nullable(),
  /** null when the sender's user was deleted. */
  sender: z.object({ id: z.number(), name: z.string() }).nullable(),
  message: z.string(),
  createdAt: z.string(),
  /** Tickets the text mentions as `#123` that exist in the company (their page is /tickets/{uuid}). */
  tickets: z.array(z.object({ id: z.number(), uuid: z.string() })),
});
export type ChatMessageDTO = z.infer<typeof chatMessageDto>;

/** `#123` not inside a word (nor `##123`) names ticket 123. */
export const TICKET_MENTION = /(^|[^\p{L}\p{N}_#])#(\d{1,9})(?![\p{L}\p{N}_])/gu;

/** The ticket ids a text mentions, in order, without repeats (at most 20). */
export function ticketMentions(text: string): number[] {
  const ids = [...text.matchAll(TICKET_MENTION)].map((m) => Number(m[2]));
  return [...new Set(ids)].slice(0, 20);
}

/** GET /chats/: the caller's chats, most recent activity first; `unreadCount` sums the caller's unreads. */
export const chatListResponse = z.object({
  records: z.array(chatDto),
  hasMore: z.boolean(),
  unreadCount: z.number(),
});
export type ChatListResponse = z.infer<typeof chatListResponse>;

/** GET /chats/:id/messages: one page in chronological order (oldest first); hasMore = older ones exist. */
export const chatMessagesResponse = z.object({
  records: z.array(chatMessageDto),
  hasMore: z.boolean(),
});
export type ChatMessagesResponse = z.infer<typeof chatMessagesResponse>;

/**
 * Socket events, to the members' own rooms only:
 * - `chat`: the list — create / update (record), delete (id), new-message (newMessage, record), reload (refetch).
 * - `chat-{id}`: the open pane of one chat — new-message, update, delete.
 * - `chat-user`: the caller's own state changed elsewhere (read in another tab): update (record).
 */
export type ChatEvent =
  | { action: "create" | "update"; record: ChatDTO }
  | { action: "delete"; id: number }
  | { action: "new-message"; newMessage: ChatMessageDTO; record: ChatDTO }
  | { action: "reload" };

export type ChatRoomEvent =
  { action: "new-message"; newMessage: ChatMessageDTO; record: ChatDTO } | { action: "update"; record: ChatDTO } | { action: "delete"; id: number };

export type ChatUserEvent = { action: "update"; record: ChatDTO };
