import { alias } from "drizzle-orm/pg-core";
import { and, asc, count, desc, eq, inArray, min, sql } from "drizzle-orm";
import type { MessageDTO, MessageEditDTO, MessageReactionDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { contacts, messageEdits, messageReactions, messages } from "../../db/schema";
import { OWN_REACTION_SENDER } from "./reactions";
import { mediaUrl } from "../media/service";

const quoted = alias(messages, "quoted");

function selectMessages(db: DbOrTx) {
  return db
    .select({
      message: messages,
      contactName: contacts.name,
      quoted: { id: quoted.id, body: quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType, isDeleted: quoted.isDeleted },
    })
    .from(messages)
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId));
}

export { selectMessages };
type Row = Awaited<ReturnType<ReturnType<typeof selectMessages>["execute"]>>[number];

/** What a message carries besides its row: reactions and earlier texts (issue 21). */
interface Extras {
  reactions: Map<number, MessageReactionDTO[]>;
  edits: Map<number, MessageEditDTO[]>;
}

export function presentMessage(r: Row, extras?: Extras): MessageDTO {
  const m = r.message;
  // A message deleted by the contact keeps none of its texts on the wire, earlier ones included.
  const hidden = m.isDeleted && !m.fromMe;
  return {
    id: m.id,
    ticketId: m.ticketId,
    contactId: m.contactId,
    // A message deleted by the contact keeps no text on the wire (the UI shows the spec's notice).
    body: m.isDeleted && !m.fromMe ? "" : m.body,
    fromMe: m.fromMe,
    mediaType: m.mediaType,
    mediaUrl: m.mediaPath ? mediaUrl(m.mediaPath, m.ticketId) : null,
    mediaName: m.mediaName,
    mimeType: m.mimeType,
    quotedMsg: r.quoted?.id ? { ...r.quoted, body: r.quoted.isDeleted && !r.quoted.fromMe ? "" : r.quoted.body } : null,
    read: m.read,
    ack: m.ack,
    isDeleted: m.isDeleted,
    status: (m.status as MessageDTO["status"]) ?? "sent",
    ...(m.status === "failed" &&
      typeof (m.dataJson as { failure?: unknown } | null)?.failure === "string" && {
        failureReason: (m.dataJson as { failure: string }).failure,
      }),
    participant: m.participant,
    createdAt: m.createdAt.toISOString(),
    contact: m.contactId !== null && r.contactName !== null ? { id: m.contactId, name: r.contactName } : null,
    reactions: extras?.reactions.get(m.id) ?? [],
    editedAt: m.editedAt ? m.editedAt.toISOString() : null,
    ...(m.editedAt && { edits: hidden ? [] : (extras?.edits.get(m.id) ?? []) }),
  };
}

/** Reactions (grouped by emoji) and edit histories of these rows, two indexed reads (company_id, message_id…). */
async function extrasOf(db: DbOrTx, rows: Row[]): Promise<Extras> {
  const extras: Extras = { reactions: new Map(), edits: new Map() };
  if (rows.length === 0) return extras;
  const companyIds = [...new Set(rows.map((r) => r.message.companyId))];
  const ids = rows.map((r) => r.message.id);
  const editedIds = rows.filter((r) => r.message.editedAt).map((r) => r.message.id);
  // One after the other: `db` may be a transaction's single connection.
  const reactions = await db
    .select({
      messageId: messageReactions.messageId,
      emoji: messageReactions.emoji,
      count: count(),
      fromMe: sql<boolean>`bool_or(${messageReactions.sender} = ${OWN_REACTION_SENDER})`,
    })
    .from(messageReactions)
    .where(and(inArray(messageReactions.companyId, companyIds), inArray(messageReactions.messageId, ids)))
    .groupBy(messageReactions.messageId, messageReactions.emoji)
    .orderBy(desc(count()), asc(min(messageReactions.createdAt)), asc(messageReactions.emoji));
  const edits =
    editedIds.length === 0
      ? []
      : await db
          .select({ messageId: messageEdits.messageId, body: messageEdits.previousBody, editedAt: messageEdits.editedAt })
          .from(messageEdits)
          .where(and(inArray(messageEdits.companyId, companyIds), inArray(messageEdits.messageId, editedIds)))
          .orderBy(asc(messageEdits.editedAt), asc(messageEdits.id));
  for (const r of reactions) {
    const list = extras.reactions.get(r.messageId) ?? [];
    list.push({ emoji: r.emoji, count: Number(r.count), fromMe: !!r.fromMe });
    extras.reactions.set(r.messageId, list);
  }
  for (const e of edits) {
    const list = extras.edits.get(e.messageId) ?? [];
    list.push({ body: e.body, editedAt: e.editedAt.toISOString() });
    extras.edits.set(e.messageId, list);
  }
  return extras;
}

/** The wire shape of rows read with selectMessages, with their reactions and edit histories. */
export async function presentRows(db: DbOrTx, rows: Row[]): Promise<MessageDTO[]> {
  const extras = await extrasOf(db, rows);
  return rows.map((r) => presentMessage(r, extras));
}

export async function presentMessagesById(db: DbOrTx, ids: number[]): Promise<MessageDTO[]> {
  if (ids.length === 0) return [];
  const rows = await selectMessages(db).where(inArray(messages.id, ids));
  const extras = await extrasOf(db, rows);
  const byId = new Map(rows.map((r) => [r.message.id, presentMessage(r, extras)]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
