import { index, integer, pgTable, serial, text, varchar, type AnyPgColumn } from "drizzle-orm/pg-core";
import { companies, queues, timestamps } from "./core";

/** Chatbot menu tree under a queue. */
export const queueOptions = pgTable(
  "queue_options",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
    parentId: integer("parent_id").references((): AnyPgColumn => queueOptions.id, { onDelete: "cascade" }),
    title: varchar("title", { length: 100 }).notNull(),
    message: text("message").notNull().default(""),
    /** The number the customer types ("1", "2"…); also the display order. */
    option: varchar("option", { length: 10 }).notNull(),
    ...timestamps,
  },
  (t) => [
    index("queue_options_company_queue_parent_idx").on(t.companyId, t.queueId, t.parentId, t.option),
    // Supports the ON DELETE CASCADE walk down the tree.
    index("queue_options_parent_idx").on(t.parentId),
  ],
);
