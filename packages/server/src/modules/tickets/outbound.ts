/**
 * The ticket a message the company starts goes on (a scheduled message, the send API): the contact's live
 * ticket on the connection when there is one, else a new one — open and the opener's, like an attendant
 * starting a conversation, or waiting in line (pending, its cycle queued) when no person opens it.
 */
import { and, eq, ne } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { contacts, tickets } from "../../db/schema";
import { cycles } from "./cycles";

export interface OutboundTicketTarget {
  companyId: number;
  contactId: number;
  connectionId: number;
  /** Who opens the conversation (an attendant of the company), or null for the company itself. */
  openerId: number | null;
}

export async function openOrReuseTicket(tx: Tx, target: OutboundTicketTarget): Promise<{ id: number; created: boolean }> {
  const { companyId, contactId, connectionId, openerId } = target;
  const live = () =>
    tx
      .select({ id: tickets.id })
      .from(tickets)
      .where(
        and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId), eq(tickets.connectionId, connectionId), ne(tickets.status, "closed")),
      )
      .limit(1);
  const [existing] = await live();
  if (existing) return { id: existing.id, created: false };
  const [contact] = await tx
    .select({ isGroup: contacts.isGroup })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
    .limit(1);
  const [created] = await tx
    .insert(tickets)
    .values({
      companyId,
      contactId,
      connectionId,
      userId: openerId,
      status: openerId ? "open" : "pending",
      isGroup: contact?.isGroup ?? false,
    })
    .onConflictDoNothing()
    .returning();
  if (!created) {
    // A customer's message opened one at the same moment (the partial unique index settled it).
    const [other] = await live();
    return { id: other!.id, created: false };
  }
  if (openerId) await cycles.started(tx, created, openerId);
  else await cycles.opened(tx, created);
  return { id: created.id, created: true };
}
