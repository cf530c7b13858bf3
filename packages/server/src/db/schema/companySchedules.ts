import { integer, pgTable, serial, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps } from "./core";

/** Company opening hours, one row per weekday (used when setting scheduleType = 'company'). */
export const companySchedules = pgTable(
  "company_schedules",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    weekday: varchar("weekday", { length: 20 }).notNull(),
    /** Stable key ('monday'…'sunday'); `weekday` is the display label. */
    weekdayEn: varchar("weekday_en", { length: 10 }).notNull(),
    /** "HH:mm" in the company time zone. */
    startTime: varchar("start_time", { length: 5 }).notNull(),
    endTime: varchar("end_time", { length: 5 }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("company_schedules_company_weekday_uq").on(t.companyId, t.weekdayEn)],
);
