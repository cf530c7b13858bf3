import { alias } from "drizzle-orm/pg-core";
import { eq, inArray } from "drizzle-orm";
import type { MessageDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { contacts, messages } from "../../db/schema";
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

export function presentMessage(r: Row): MessageDTO {
  const m = r.message;
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
  };
}

export async function presentMessagesById(db: DbOrTx, ids: number[]): Promise<MessageDTO[]> {
  if (ids.length === 0) return [];
  const rows = await selectMessages(db).where(inArray(messages.id, ids));
  const byId = new Map(rows.map((r) => [r.message.id, presentMessage(r)]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
