import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { companies, timestamps } from "./core";

/** An outgoing webhook of a company (migration 0012): a URL subscribed to some events, signed with `secret`. */
export const webhooks = pgTable(
  "webhooks",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    url: varchar("url", { length: 2000 }).notNull(),
    events: jsonb("events").$type<string[]>().notNull().default([]),
    /** HMAC-SHA256 key of the signature header; shown to admins so receivers can verify. */
    secret: varchar("secret", { length: 100 }).notNull(),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [index("webhooks_company_idx").on(t.companyId)],
);

/** One event for one webhook: its payload, state and the last attempt's outcome (the delivery log). */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    webhookId: integer("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** The outbox event it came from (idempotency of the at-least-once consumer). */
    sourceEventId: varchar("source_event_id", { length: 40 }).notNull(),
    event: varchar("event", { length: 40 }).notNull(),
    /** The ticket, message or contact id the event is about. */
    subjectId: integer("subject_id"),
    payload: jsonb("payload").notNull(),
    /** pending | retrying | delivered | failed */
    status: varchar("status", { length: 20 }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastResponse: text("last_response"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("webhook_deliveries_source_uq").on(t.webhookId, t.sourceEventId),
    uniqueIndex("webhook_deliveries_ticket_created_uq")
      .on(t.webhookId, t.subjectId)
      .where(sql`${t.event} = 'ticket.created'`),
    index("webhook_deliveries_company_webhook_idx").on(t.companyId, t.webhookId, t.id),
  ],
);
