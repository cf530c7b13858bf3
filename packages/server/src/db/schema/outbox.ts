import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/** Durable domain events (events/outbox.ts); see migration 0007 for why `txid` orders them. */
export const outboxEvents = pgTable(
  "outbox_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    txid: bigint("txid", { mode: "number" })
      .notNull()
      .default(sql`(pg_current_xact_id()::text::bigint)`),
    companyId: integer("company_id").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("outbox_events_txid_id_idx").on(t.txid, t.id), index("outbox_events_created_at_idx").on(t.createdAt)],
);

/** Where each consumer group stands in the event stream. */
export const outboxCursors = pgTable("outbox_cursors", {
  consumer: text("consumer").primaryKey(),
  txid: bigint("txid", { mode: "number" }).notNull(),
  eventId: bigint("event_id", { mode: "number" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
