import { and, eq, inArray, sql } from "drizzle-orm";
import { languageOf, profileOf, type CompanyRefDTO, type QueueRefDTO, type UserDTO, type UserSimpleDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { companies, queues, userQueues, users } from "../../db/schema";

type UserRow = typeof users.$inferSelect;
type CompanyRow = typeof companies.$inferSelect;

/** `hasPaid`: whether any invoice of the company was ever paid (the trial ends with the first payment). */
export function presentCompanyRef(c: CompanyRow, hasPaid = false): CompanyRefDTO {
  return {
    id: c.id,
    name: c.name,
    dueDate: c.dueDate,
    status: c.status,
    campaignsEnabled: c.campaignsEnabled,
    planId: c.planId,
    email: c.email,
    trialExpiration: hasPaid ? null : c.dueDate,
    timeZone: c.timeZone,
  };
}

/** Builds UserDTOs for many rows with two batched queries (queues, companies): no N+1. */
export async function presentUsers(db: DbOrTx, rows: UserRow[]): Promise<UserDTO[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((u) => u.id);
  const companyIds = [...new Set(rows.map((u) => u.companyId))];
  const [queueRows, companyRows] = await Promise.all([
    db
      .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
      .from(userQueues)
      .innerJoin(queues, eq(queues.id, userQueues.queueId))
      .where(and(inArray(userQueues.userId, ids), inArray(queues.companyId, companyIds)))
      .orderBy(queues.name),
    db
      .select({
        company: companies,
        // Qualified by hand: inside sql`` drizzle writes columns unqualified, which the subquery would rebind.
        hasPaid: sql<boolean>`exists (select 1 from invoices i where i.company_id = "companies"."id" and i.status = 'paid')`,
      })
      .from(companies)
      .where(inArray(companies.id, companyIds)),
  ]);
  const queuesByUser = new Map<number, QueueRefDTO[]>();
  for (const q of queueRows) {
    const list = queuesByUser.get(q.userId) ?? [];
    list.push({ id: q.id, name: q.name, color: q.color });
    queuesByUser.set(q.userId, list);
  }
  const companyById = new Map(companyRows.map((r) => [r.company.id, presentCompanyRef(r.company, r.hasPaid === true)]));
  return rows.map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    profile: profileOf(u.profile),
    super: u.super,
    companyId: u.companyId,
    allTicket: u.allTicket === "enable" ? "enable" : "disable",
    online: u.online,
    queues: queuesByUser.get(u.id) ?? [],
    company: companyById.get(u.companyId)!,
    language: languageOf(u.language),
    createdAt: u.createdAt.toISOString(),
  }));
}

export async function presentUser(db: DbOrTx, row: UserRow): Promise<UserDTO> {
  const [dto] = await presentUsers(db, [row]);
  return dto!;
}

export function presentUserSimple(u: Pick<UserRow, "id" | "name" | "email" | "profile">): UserSimpleDTO {
  return { id: u.id, name: u.name, email: u.email, profile: u.profile };
}
