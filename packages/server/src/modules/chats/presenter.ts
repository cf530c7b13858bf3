import { and, asc, eq, inArray } from "drizzle-orm";
import { ticketMentions, type ChatDTO, type ChatMessageDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { chatMessages, chatUsers, chats, tickets, users } from "../../db/schema";
import { forCompany } from "../../db/tenant";

type ChatRow = typeof chats.$inferSelect;
type ChatMessageRow = typeof chatMessages.$inferSelect;

/** Chats with their members (id, name, unreads) in one batched lookup; never more of a user than that. */
export async function presentChats(db: DbOrTx, companyId: number, rows: ChatRow[]): Promise<ChatDTO[]> {
  if (rows.length === 0) return [];
  const members = await db
    .select({ chatId: chatUsers.chatId, userId: chatUsers.userId, unreads: chatUsers.unreads, name: users.name })
    .from(chatUsers)
    .innerJoin(users, and(eq(users.id, chatUsers.userId), forCompany(users, companyId)))
    .where(
      and(
        forCompany(chatUsers, companyId),
        inArray(
          chatUsers.chatId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(users.name), asc(users.id));
  const byChat = new Map<number, ChatDTO["users"]>();
  for (const m of members) {
    const list = byChat.get(m.chatId) ?? [];
    list.push({ userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: m.name } });
    byChat.set(m.chatId, list);
  }
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    title: r.title,
    ownerId: r.ownerId,
    lastMessage: r.lastMessage,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    users: byChat.get(r.id) ?? [],
  }));
}

export async function presentChat(db: DbOrTx, companyId: number, row: ChatRow): Promise<ChatDTO> {
  return (await presentChats(db, companyId, [row]))[0]!;
}

export async function presentChatMessages(db: DbOrTx, companyId: number, rows: ChatMessageRow[]): Promise<ChatMessageDTO[]> {
  const senderIds = [...new Set(rows.map((r) => r.senderId).filter((id): id is number => id !== null))];
  const senders = senderIds.length
    ? await db
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(and(forCompany(users, companyId), inArray(users.id, senderIds)))
    : [];
  const byId = new Map(senders.map((u) => [u.id, u]));
  // `#123` mentions: only tickets of this company are linked (one lookup for the whole page).
  const mentioned = new Map(rows.map((r) => [r.id, ticketMentions(r.message)]));
  const ticketIds = [...new Set([...mentioned.values()].flat())];
  const found = ticketIds.length
    ? await db
        .select({ id: tickets.id, uuid: tickets.uuid })
        .from(tickets)
        .where(and(forCompany(tickets, companyId), inArray(tickets.id, ticketIds)))
    : [];
  const ticketById = new Map(found.map((t) => [t.id, t]));
  return rows.map((r) => ({
    id: r.id,
    chatId: r.chatId,
    senderId: r.senderId,
    sender: r.senderId !== null ? (byId.get(r.senderId) ?? null) : null,
    message: r.message,
    createdAt: r.createdAt.toISOString(),
    tickets: (mentioned.get(r.id) ?? []).flatMap((id) => {
      const ticket = ticketById.get(id);
      return ticket ? [{ id: ticket.id, uuid: ticket.uuid }] : [];
    }),
  }));
}
