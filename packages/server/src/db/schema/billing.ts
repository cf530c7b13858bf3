import { boolean, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps, users } from "./core";
import { invoices } from "./invoices";

/**
 * Pix charges created at checkout, one row per txid. The payment webhook arrives without a tenant: it finds
 * the charge (and so the company and invoice) by txid here, then asks the PSP what really happened.
 */
export const pixCharges = pgTable(
  "pix_charges",
  {
    txid: varchar("txid", { length: 35 }).primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    /** static | efi | sandbox */
    provider: varchar("provider", { length: 20 }).notNull(),
    /** Copied from the invoice when the charge was made; the PSP's amount must equal it. */
    amount: numeric("amount", { precision: 10, scale: 2, mode: "number" }).notNull(),
    /** API Pix status: ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP. */
    status: varchar("status", { length: 40 }).notNull().default("ATIVA"),
    /** The copy-and-paste EMV text (pixCopiaECola). */
    brCode: text("br_code").notNull(),
    /** null for a static code (it does not expire). */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index("pix_charges_company_invoice_idx").on(t.companyId, t.invoiceId, t.createdAt)],
);

/**
 * Money received for an invoice. A Pix payment is identified by its endToEndId (unique: a replayed or
 * repeated webhook finds it already recorded). `applied` says whether this payment settled the invoice;
 * a second payment of an already-paid invoice is recorded with applied = false and changes nothing else.
 */
export const invoicePayments = pgTable(
  "invoice_payments",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    /** pix (confirmed at the PSP) | manual (a super user confirmed a static Pix) */
    method: varchar("method", { length: 10 }).notNull(),
    txid: varchar("txid", { length: 35 }),
    endToEndId: varchar("end_to_end_id", { length: 64 }),
    amount: numeric("amount", { precision: 10, scale: 2, mode: "number" }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
    confirmedByUserId: integer("confirmed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    applied: boolean("applied").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("invoice_payments_end_to_end_uq").on(t.endToEndId), index("invoice_payments_company_invoice_idx").on(t.companyId, t.invoiceId)],
);
