import { and, eq, inArray } from "drizzle-orm";
import { SCHEDULE_STATUSES, type ScheduleDTO, type ScheduleStatus } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { contacts, scheduledMessages, users } from "../../db/schema";

type ScheduleRow = typeof scheduledMessages.$inferSelect;

const statusOf = (s: string): ScheduleStatus => ((SCHEDULE_STATUSES as readonly string[]).includes(s) ? (s as ScheduleStatus) : "PENDENTE");

/** Rows with their contact and author, in two batched lookups (no N+1). */
export async function presentSchedules(db: DbOrTx, companyId: number, rows: ScheduleRow[]): Promise<ScheduleDTO[]> {
  if (rows.length === 0) return [];
  const contactIds = [...new Set(rows.map((r) => r.contactId))];
  const userIds = [...new Set(rows.map((r) => r.userId).filter((id): id is number => id !== null))];
  const [contactRows, userRows] = await Promise.all([
    db
      .select({ id: contacts.id, name: contacts.name, number: contacts.number })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), inArray(contacts.id, contactIds))),
    userIds.length
      ? db
          .select({ id: users.id, name: users.name })
          .from(users)
          .where(and(eq(users.companyId, companyId), inArray(users.id, userIds)))
      : Promise.resolve([]),
  ]);
  const contactById = new Map(contactRows.map((c) => [c.id, c]));
  const userById = new Map(userRows.map((u) => [u.id, u]));
  return rows.map((r) => ({
    id: r.id,
    companyId: r.companyId,
    body: r.body,
    sendAt: r.sendAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    status: statusOf(r.status),
    contactId: r.contactId,
    contact: contactById.get(r.contactId) ?? null,
    ticketId: r.ticketId,
    userId: r.userId,
    user: r.userId !== null ? (userById.get(r.userId) ?? null) : null,
    connectionId: r.connectionId,
    lastError: r.lastError,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function presentScheduleById(db: DbOrTx, companyId: number, id: number): Promise<ScheduleDTO | null> {
  const [row] = await db
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.companyId, companyId), eq(scheduledMessages.id, id)))
    .limit(1);
  if (!row) return null;
  return (await presentSchedules(db, companyId, [row]))[0]!;
}
