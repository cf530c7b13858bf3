import { integer, pgTable, serial, text, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps, users } from "./core";

export const quickMessages = pgTable(
  "quick_messages",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    shortcode: varchar("shortcode", { length: 50 }).notNull(),
    message: text("message").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    mediaPath: varchar("media_path", { length: 500 }),
    mediaName: varchar("media_name", { length: 255 }),
    ...timestamps,
  },
  (t) => [uniqueIndex("quick_messages_company_shortcode_uq").on(t.companyId, t.shortcode)],
);
