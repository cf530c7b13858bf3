import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  CHAT_MESSAGES_PAGE_SIZE,
  PAGE_SIZE,
  chatCreateBody,
  chatMessageBody,
  chatMessagesQuery,
  chatUpdateBody,
  type ChatDTO,
  type ChatListResponse,
  type ChatMessageDTO,
  type ChatMessagesResponse,
  type ListQuery,
} from "@balcao/shared";
import type { AppContext } from "../../context";
import type { Tx } from "../../db/client";
import { chatMessages, chatUsers, chats, users } from "../../db/schema";
import { containsPattern, foldColumn } from "../../db/search";
import { forCompany } from "../../db/tenant";
import { AppError, forbidden, notFound } from "../../http/errors";
import type { Actor } from "../auth/service";
import { chatPolicy } from "./policy";
import { presentChat, presentChatMessages, presentChats } from "./presenter";

type CreateInput = z.output<typeof chatCreateBody>;
type UpdateInput = z.output<typeof chatUpdateBody>;
type MessageInput = z.output<typeof chatMessageBody>;
type MessagesQuery = z.output<typeof chatMessagesQuery>;
type ChatRow = typeof chats.$inferSelect;

/** `lastMessage` keeps a preview, not the whole text. */
const PREVIEW_CHARS = 255;

/**
 * Internal staff chat. Every query is scoped by the caller's company; a chat is visible to its members only
 * (anyone else — a colleague outside it, another company — gets the same 404 as for a missing chat).
 * Events go through the outbox in the transaction of the change and reach the members' rooms only.
 */
export class ChatsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  /** The caller's chats, most recent activity first (20 per page), with the caller's total unread count. */
  async list(actor: Actor, query: ListQuery): Promise<ChatListResponse> {
    const conditions = [forCompany(chats, actor.companyId)];
    if (query.searchParam) conditions.push(sql`${foldColumn(chats.title)} like ${containsPattern(query.searchParam)}`);
    const rows = await this.db
      .select({ chat: chats })
      .from(chats)
      .innerJoin(chatUsers, and(eq(chatUsers.chatId, chats.id), forCompany(chatUsers, actor.companyId), eq(chatUsers.userId, actor.id)))
      .where(and(...conditions))
      .orderBy(desc(chats.updatedAt), desc(chats.id))
      .limit(PAGE_SIZE + 1)
      .offset((query.pageNumber - 1) * PAGE_SIZE);
    const [total] = await this.db
      .select({ value: sql<number>`coalesce(sum(${chatUsers.unreads}), 0)`.mapWith(Number) })
      .from(chatUsers)
      .where(and(forCompany(chatUsers, actor.companyId), eq(chatUsers.userId, actor.id)));
    return {
      records: await presentChats(
        this.db,
        actor.companyId,
        rows.slice(0, PAGE_SIZE).map((r) => r.chat),
      ),
      hasMore: rows.length > PAGE_SIZE,
      unreadCount: total?.value ?? 0,
    };
  }

  /** The chat if the caller is a member (locked FOR UPDATE inside a transaction that changes it). */
  private async findForMember(actor: Actor, id: number, tx?: Tx, lock = false): Promise<ChatRow> {
    const query = (tx ?? this.db)
      .select({ chat: chats })
      .from(chats)
      .innerJoin(chatUsers, and(eq(chatUsers.chatId, chats.id), forCompany(chatUsers, actor.companyId), eq(chatUsers.userId, actor.id)))
      .where(and(forCompany(chats, actor.companyId), eq(chats.id, id)))
      .limit(1);
    const [row] = lock ? await query.for("update", { of: chats }) : await query;
    if (!row) throw notFound("ERR_NO_CHAT_FOUND");
    return row.chat;
  }

  private async memberIds(tx: Tx, companyId: number, chatId: number): Promise<number[]> {
    const rows = await tx
      .select({ userId: chatUsers.userId })
      .from(chatUsers)
      .where(and(forCompany(chatUsers, companyId), eq(chatUsers.chatId, chatId)));
    return rows.map((r) => r.userId);
  }

  /** The chosen members must be users of the caller's company (one unknown id refuses the whole list). */
  private async assertColleagues(tx: Tx, companyId: number, ids: number[]): Promise<void> {
    const found = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(forCompany(users, companyId), inArray(users.id, ids)));
    if (found.length !== ids.length) throw new AppError("ERR_NO_USER_FOUND", 400);
  }

  async show(actor: Actor, id: number): Promise<ChatDTO> {
    const chat = await this.findForMember(actor, id);
    return presentChat(this.db, actor.companyId, chat);
  }

  /** The caller owns the new chat and is always one of its members, besides the users chosen. */
  async create(actor: Actor, input: CreateInput): Promise<ChatDTO> {
    const memberIds = [...new Set([actor.id, ...input.users])];
    return this.db.transaction(async (tx) => {
      await this.assertColleagues(tx, actor.companyId, memberIds);
      const [row] = await tx.insert(chats).values({ companyId: actor.companyId, title: input.title, ownerId: actor.id }).returning();
      await tx.insert(chatUsers).values(memberIds.map((userId) => ({ companyId: actor.companyId, chatId: row!.id, userId })));
      const chat = await presentChat(tx, actor.companyId, row!);
      await this.ctx.events.record(tx, { type: "chats.created", companyId: actor.companyId, chat, memberIds });
      return chat;
    });
  }

  /** Owner only. New members start with no unread messages; removed ones lose the chat at once. */
  async update(actor: Actor, id: number, input: UpdateInput): Promise<ChatDTO> {
    return this.db.transaction(async (tx) => {
      const current = await this.findForMember(actor, id, tx, true);
      if (!chatPolicy.manage(actor, current)) throw forbidden();
      const before = await this.memberIds(tx, actor.companyId, id);
      let after = before;
      if (input.users) {
        after = [...new Set([actor.id, ...input.users])];
        await this.assertColleagues(tx, actor.companyId, after);
        const removed = before.filter((u) => !after.includes(u));
        const added = after.filter((u) => !before.includes(u));
        if (removed.length)
          await tx.delete(chatUsers).where(and(forCompany(chatUsers, actor.companyId), eq(chatUsers.chatId, id), inArray(chatUsers.userId, removed)));
        if (added.length) await tx.insert(chatUsers).values(added.map((userId) => ({ companyId: actor.companyId, chatId: id, userId })));
      }
      const [row] = await tx
        .update(chats)
        .set({ ...(input.title !== undefined && { title: input.title }), updatedAt: new Date() })
        .where(and(forCompany(chats, actor.companyId), eq(chats.id, id)))
        .returning();
      const chat = await presentChat(tx, actor.companyId, row!);
      const removedIds = before.filter((u) => !after.includes(u));
      await this.ctx.events.record(tx, { type: "chats.updated", companyId: actor.companyId, chat, memberIds: after, removedIds });
      return chat;
    });
  }

  /** Owner only; its messages go with it. */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await this.findForMember(actor, id, tx, true);
      if (!chatPolicy.manage(actor, current)) throw forbidden();
      const memberIds = await this.memberIds(tx, actor.companyId, id);
      await tx.delete(chats).where(and(forCompany(chats, actor.companyId), eq(chats.id, id)));
      await this.ctx.events.record(tx, { type: "chats.deleted", companyId: actor.companyId, chatId: id, memberIds });
    });
  }

  /**
   * One page of messages, newest first by (createdAt, id) — the index `chat_messages_company_chat_created_idx`
   * — returned oldest first. `before` (a message id of this chat) asks for the page older than it.
   */
  async messages(actor: Actor, id: number, query: MessagesQuery): Promise<ChatMessagesResponse> {
    await this.findForMember(actor, id);
    const conditions = [forCompany(chatMessages, actor.companyId), eq(chatMessages.chatId, id)];
    if (query.before) {
      const [cursor] = await this.db
        .select({ createdAt: chatMessages.createdAt, id: chatMessages.id })
        .from(chatMessages)
        .where(and(forCompany(chatMessages, actor.companyId), eq(chatMessages.chatId, id), eq(chatMessages.id, query.before)))
        .limit(1);
      if (!cursor) throw new AppError("ERR_VALIDATION", 400);
      conditions.push(sql`(${chatMessages.createdAt}, ${chatMessages.id}) < (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id})`);
    }
    const rows = await this.db
      .select()
      .from(chatMessages)
      .where(and(...conditions))
      .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
      .limit(CHAT_MESSAGES_PAGE_SIZE + 1)
      .offset(query.before ? 0 : (query.pageNumber - 1) * CHAT_MESSAGES_PAGE_SIZE);
    const page = rows.slice(0, CHAT_MESSAGES_PAGE_SIZE).reverse();
    return { records: await presentChatMessages(this.db, actor.companyId, page), hasMore: rows.length > CHAT_MESSAGES_PAGE_SIZE };
  }

  /** A member writes: every other member's unread count grows by one; the chat moves to the top. */
  async send(actor: Actor, id: number, input: MessageInput): Promise<ChatMessageDTO> {
    return this.db.transaction(async (tx) => {
      // The lock orders concurrent messages of one chat: events leave in the order the messages were stored.
      await this.findForMember(actor, id, tx, true);
      const [row] = await tx
        .insert(chatMessages)
        .values({ companyId: actor.companyId, chatId: id, senderId: actor.id, message: input.message })
        .returning();
      await tx
        .update(chatUsers)
        .set({ unreads: sql`${chatUsers.unreads} + 1`, updatedAt: new Date() })
        .where(and(forCompany(chatUsers, actor.companyId), eq(chatUsers.chatId, id), ne(chatUsers.userId, actor.id)));
      const [chatRow] = await tx
        .update(chats)
        .set({ lastMessage: input.message.slice(0, PREVIEW_CHARS), updatedAt: new Date() })
        .where(and(forCompany(chats, actor.companyId), eq(chats.id, id)))
        .returning();
      const [message] = await presentChatMessages(tx, actor.companyId, [row!]);
      const chat = await presentChat(tx, actor.companyId, chatRow!);
      const memberIds = chat.users.map((u) => u.userId);
      await this.ctx.events.record(tx, { type: "chats.messageCreated", companyId: actor.companyId, chat, message: message!, memberIds });
      return message!;
    });
  }

  /** POST /chats/:id/read: the caller's unread count goes to zero (spec §4). */
  async markRead(actor: Actor, id: number): Promise<ChatDTO> {
    return this.db.transaction(async (tx) => {
      const current = await this.findForMember(actor, id, tx);
      const [changed] = await tx
        .update(chatUsers)
        .set({ unreads: 0, updatedAt: new Date() })
        .where(and(forCompany(chatUsers, actor.companyId), eq(chatUsers.chatId, id), eq(chatUsers.userId, actor.id), ne(chatUsers.unreads, 0)))
        .returning({ userId: chatUsers.userId });
      const chat = await presentChat(tx, actor.companyId, current);
      if (changed) await this.ctx.events.record(tx, { type: "chats.read", companyId: actor.companyId, chat, userId: actor.id });
      return chat;
    });
  }
}
