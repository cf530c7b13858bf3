import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";

export interface GenerateOptions {
  /** Invoices appear this many days before the due date (in each company's time zone). */
  leadDays: number;
  /** Only this company (the finance page makes sure its own invoice exists). */
  companyId?: number;
}

export interface GeneratedInvoice {
  id: number;
  companyId: number;
  dueDate: string;
}

/**
 * Creates the invoice of every company whose due date is within `leadDays` of `now` (or already past) and
 * has none for that date yet: one per company and period, priced from the company's plan (a monthly price)
 * times the recurrence's months. One INSERT … SELECT … ON CONFLICT DO NOTHING on the unique index
 * (company_id, due_date): running it again, on another process or after a restart, at the same moment or
 * later, creates nothing twice. Inactive companies, companies without a plan and free plans get none.
 */
export async function generateDueInvoices(db: DbOrTx, now: Date, options: GenerateOptions): Promise<GeneratedInvoice[]> {
  const companyFilter = options.companyId === undefined ? sql`` : sql`and c.id = ${options.companyId}`;
  const result = await db.execute<{ id: number; company_id: number; due_date: string }>(sql`
    insert into invoices (company_id, detail, value, due_date, status, plan_id, recurrence)
    select c.id, p.name,
           p.value * (case c.recurrence when 'BIMESTRAL' then 2 when 'TRIMESTRAL' then 3 when 'SEMESTRAL' then 6 when 'ANUAL' then 12 else 1 end),
           c.due_date, 'open', p.id,
           case when c.recurrence in ('MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL') then c.recurrence else 'MENSAL' end
      from companies c
      join plans p on p.id = c.plan_id
     where c.status
       and c.due_date is not null
       and p.value > 0
       and c.due_date <= (${now.toISOString()}::timestamptz at time zone c.time_zone)::date + ${options.leadDays}::int
       ${companyFilter}
    on conflict (company_id, due_date) do nothing
    returning id, company_id, to_char(due_date, 'YYYY-MM-DD') as due_date`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { id: number; company_id: number; due_date: string }[];
  return rows.map((r) => ({ id: Number(r.id), companyId: Number(r.company_id), dueDate: r.due_date }));
}
