import { date, index, integer, numeric, pgTable, serial, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { companies, plans, timestamps } from "./core";

export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    detail: varchar("detail", { length: 200 }).notNull().default(""),
    /** BRL; the Pix charge amount is taken from here, never from the client. */
    value: numeric("value", { precision: 10, scale: 2, mode: "number" }).notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    /** open | paid */
    status: varchar("status", { length: 10 }).notNull().default("open"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** Pix charge id; the payment webhook finds the invoice by it before any tenant is known. */
    pixTxid: varchar("pix_txid", { length: 64 }),
    planId: integer("plan_id").references(() => plans.id, { onDelete: "set null" }),
    /** The recurrence the value was computed for; paying extends the due date by it (not by today's company setting). */
    recurrence: varchar("recurrence", { length: 12 }).notNull().default("MENSAL"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("invoices_pix_txid_uq").on(t.pixTxid),
    // One invoice per company and period: generation is an INSERT … ON CONFLICT DO NOTHING on it.
    uniqueIndex("invoices_company_due_uq").on(t.companyId, t.dueDate),
    index("invoices_company_due_idx").on(t.companyId, t.dueDate, t.id),
    index("invoices_status_due_idx").on(t.status, t.dueDate),
  ],
);
