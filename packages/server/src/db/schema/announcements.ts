import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, primaryKey, serial, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps, users } from "./core";

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
    // The popover (active, newest first) and the super user's page (all, newest first).
    index("announcements_status_created_idx").on(t.status, t.createdAt, t.id),
    index("announcements_created_idx").on(t.createdAt, t.id),
  ],
);

/** Which user has opened which announcement: the popover's unread mark is per user (issue 12). */
export const announcementReads = pgTable(
  "announcement_reads",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    announcementId: integer("announcement_id")
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "announcement_reads_pk", columns: [t.companyId, t.userId, t.announcementId] }),
    index("announcement_reads_announcement_idx").on(t.announcementId),
  ],
);
