import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, serial, text, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps } from "./core";

/** Platform-wide notices written by super users; company_id records the author's company, not the audience. */
export const announcements = pgTable(
  "announcements",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    title: varchar("title", { length: 200 }).notNull(),
    text: text("text").notNull().default(""),
    /** 1 high, 2 medium, 3 low. */
    priority: integer("priority").notNull().default(3),
    mediaPath: varchar("media_path", { length: 500 }),
    mediaName: varchar("media_name", { length: 255 }),
    status: boolean("status").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    check("announcements_priority_ck", sql`${t.priority} between 1 and 3`),
    // Read by every tenant, so not company-led.
    index("announcements_status_priority_created_idx").on(t.status, t.priority, t.createdAt),
  ],
);
