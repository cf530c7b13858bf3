/**
 * Reactions and edits of stored messages (issue 21): the one storage both the inbound pipeline (a customer's
 * reaction or edit, from any provider) and the company's own reactions (POST /cloudapi/messages/:id/reaction)
 * write to. See docs/decisions.md "Reactions and edited messages".
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../../db/client";
import { messageEdits, messageReactions, messages, tickets } from "../../db/schema";
import { previewOf } from "./labels";

/** `sender` of the company's own reaction (a customer's is their chat or participant id, never this word). */
export const OWN_REACTION_SENDER = "me";

/**
 * Stores one sender's reaction on a message: a new emoji replaces theirs, "" removes it. Returns whether
 * anything changed (a replay of the same reaction changes nothing).
 */
export async function storeReaction(db: DbOrTx, companyId: number, messageId: number, sender: string, emoji: string): Promise<boolean> {
  const who = sender.slice(0, 100);
  if (!emoji) {
    const removed = await db
      .delete(messageReactions)
      .where(and(eq(messageReactions.companyId, companyId), eq(messageReactions.messageId, messageId), eq(messageReactions.sender, who)))
      .returning({ id: messageReactions.id });
    return removed.length > 0;
  }
  const now = new Date();
  const written = await db
    .insert(messageReactions)
    .values({ companyId, messageId, sender: who, emoji: emoji.slice(0, 32), createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [messageReactions.companyId, messageReactions.messageId, messageReactions.sender],
      set: { emoji: sql`excluded.emoji`, createdAt: now, updatedAt: now },
      setWhere: sql`${messageReactions.emoji} <> excluded.emoji`,
    })
    .returning({ id: messageReactions.id });
  return written.length > 0;
}

export interface EditOutcome {
  messageId: number;
  ticketId: number;
  /** The ticket's list preview changed (the edited message is its latest). */
  previewChanged: boolean;
}

/**
 * Replaces a message's text, keeping the text it had in message_edits. Null when nothing changed: no such
 * message (of that author), deleted, the same text, or an edit already applied (same `editId`).
 */
export async function applyEdit(
  tx: Tx,
  where: { companyId: number; connectionId: number; providerMessageId: string; fromMe: boolean },
  edit: { body: string; editId?: string; at: Date },
): Promise<EditOutcome | null> {
  const [m] = await tx
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.companyId, where.companyId),
        eq(messages.connectionId, where.connectionId),
        eq(messages.providerMessageId, where.providerMessageId),
        eq(messages.fromMe, where.fromMe),
      ),
    )
    .limit(1)
    .for("update");
  if (!m || m.isDeleted || m.body === edit.body) return null;
  const [kept] = await tx
    .insert(messageEdits)
    .values({ companyId: m.companyId, messageId: m.id, previousBody: m.body, providerEditId: edit.editId?.slice(0, 128) ?? null, editedAt: edit.at })
    .onConflictDoNothing()
    .returning({ id: messageEdits.id });
  if (!kept) return null;
  await tx
    .update(messages)
    .set({ body: edit.body, isEdited: true, editedAt: edit.at, updatedAt: new Date() })
    .where(and(eq(messages.companyId, m.companyId), eq(messages.id, m.id)));
  const [latest] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.companyId, m.companyId), eq(messages.ticketId, m.ticketId)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  const previewChanged = latest?.id === m.id;
  if (previewChanged)
    await tx
      .update(tickets)
      .set({ lastMessage: previewOf(m.mediaType, edit.body, m.mediaName) })
      .where(and(eq(tickets.companyId, m.companyId), eq(tickets.id, m.ticketId)));
  return { messageId: m.id, ticketId: m.ticketId, previewChanged };
}
