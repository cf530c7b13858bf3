import { eq, inArray } from "drizzle-orm";
import type { CompanyRefDTO, QueueRefDTO, UserDTO, UserSimpleDTO } from "@balcao/shared";
import type { DbOrTx } from "../../db/client";
import { companies, queues, userQueues, users } from "../../db/schema";

type UserRow = typeof users.$inferSelect;
type CompanyRow = typeof companies.$inferSelect;

export function presentCompanyRef(c: CompanyRow): CompanyRefDTO {
  return { id: c.id, name: c.name, dueDate: c.dueDate, status: c.status, campaignsEnabled: c.campaignsEnabled, planId: c.planId };
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
      .where(inArray(userQueues.userId, ids))
      .orderBy(queues.name),
    db.select().from(companies).where(inArray(companies.id, companyIds)),
  ]);
  const queuesByUser = new Map<number, QueueRefDTO[]>();
  for (const q of queueRows) {
    const list = queuesByUser.get(q.userId) ?? [];
    list.push({ id: q.id, name: q.name, color: q.color });
    queuesByUser.set(q.userId, list);
  }
  const companyById = new Map(companyRows.map((c) => [c.id, presentCompanyRef(c)]));
  return rows.map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    profile: u.profile === "admin" ? "admin" : "user",
    super: u.super,
    companyId: u.companyId,
    allTicket: u.allTicket === "enable" ? "enable" : "disable",
    online: u.online,
    queues: queuesByUser.get(u.id) ?? [],
    company: companyById.get(u.companyId)!,
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
