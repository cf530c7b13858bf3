import { index, integer, pgTable, serial, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { connections } from "./connections";
import { contacts } from "./contacts";
import { companies, timestamps, users } from "./core";
import { tickets } from "./tickets";

/** The spec's Schedule. A job row: the runner claims due PENDENTE rows with FOR UPDATE SKIP LOCKED. */
export const scheduledMessages = pgTable(
  "scheduled_messages",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    sendAt: timestamp("send_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** PENDENTE | AGENDADA | ENVIADA | ERRO */
    status: varchar("status", { length: 20 }).notNull().default("PENDENTE"),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Send through this connection (the ticket's), not the company default (reference defect 21). */
    connectionId: integer("connection_id").references(() => connections.id, { onDelete: "set null" }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Claim expiry: a crashed runner's row becomes claimable again after this. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    // Job runner: due rows across all tenants.
    index("scheduled_messages_status_send_at_idx").on(t.status, t.sendAt),
    index("scheduled_messages_company_created_idx").on(t.companyId, t.createdAt, t.id),
    index("scheduled_messages_company_contact_idx").on(t.companyId, t.contactId),
  ],
);
