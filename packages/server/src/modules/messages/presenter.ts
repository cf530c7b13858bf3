import { alias } from "drizzle-orm/pg-core";
import { eq, inArray, sql } from "drizzle-orm";
import type { MessageDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { contacts, messages } from "../../db/schema";
import { OWN_REACTION_SENDER } from "./reactions";
import { mediaUrl } from "../media/service";

const quoted = alias(messages, "quoted");

/**
 * A message's reactions grouped by emoji (most given first, then the earliest) and, for an edited message, its
 * earlier texts (issue 21), as JSON sub-selects of the message's own row: every read of messages is one statement
 * (issue 20), where a page or a message's DTO took a second, unprepared read of the reactions (and a third of the
 * edits). Both use the indexes that start with (company_id, message_id).
 */
const reactionsOfRow = sql<{ emoji: string; count: number; fromMe: boolean }[] | null>`(
  select json_agg(json_build_object('emoji', r.emoji, 'count', r.count, 'fromMe', r.from_me) order by r.count desc, r.first_at, r.emoji)
  from (
    select mr.emoji, count(*)::int as count, bool_or(mr.sender = ${OWN_REACTION_SENDER}) as from_me, min(mr.created_at) as first_at
    from message_reactions mr
    where mr.company_id = ${messages.companyId} and mr.message_id = ${messages.id}
    group by mr.emoji
  ) r)`;
const editsOfRow = sql<{ body: string; editedAt: string }[] | null>`case when ${messages.editedAt} is not null then (
  select json_agg(json_build_object('body', me.previous_body, 'editedAt', me.edited_at) order by me.edited_at, me.id)
  from message_edits me
  where me.company_id = ${messages.companyId} and me.message_id = ${messages.id}) end`;

function selectMessages(db: DbOrTx) {
  return db
    .select({
      message: messages,
      contactName: contacts.name,
      quoted: { id: quoted.id, body: quoted.body, fromMe: quoted.fromMe, mediaType: quoted.mediaType, isDeleted: quoted.isDeleted },
      reactions: reactionsOfRow,
      edits: editsOfRow,
    })
    .from(messages)
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId));
}

export { selectMessages };
type Row = Awaited<ReturnType<ReturnType<typeof selectMessages>["execute"]>>[number];
/** A row as read, or as the inbound pipeline builds it for a message it just stored (no reactions, no edits). */
type MessageRow = Omit<Row, "reactions" | "edits"> & Partial<Pick<Row, "reactions" | "edits">>;

export function presentMessage(r: MessageRow): MessageDTO {
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
    reactions: r.reactions ?? [],
    editedAt: m.editedAt ? m.editedAt.toISOString() : null,
    // JSON carries PostgreSQL's text of a timestamptz: the wire's is ISO 8601 in UTC, as every other time.
    ...(m.editedAt && { edits: hidden ? [] : (r.edits ?? []).map((e) => ({ body: e.body, editedAt: new Date(e.editedAt).toISOString() })) }),
  };
}

export function presentRows(rows: Row[]): MessageDTO[] {
  return rows.map(presentMessage);
}

export async function presentMessagesById(db: DbOrTx, ids: number[]): Promise<MessageDTO[]> {
  if (ids.length === 0) return [];
  const rows = await selectMessages(db).where(inArray(messages.id, ids));
  const byId = new Map(rows.map((r) => [r.message.id, presentMessage(r)]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
