import { index, integer, pgTable, primaryKey, serial, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps, users } from "./core";
import { tickets } from "./tickets";

export const tags = pgTable(
  "tags",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 50 }).notNull(),
    color: varchar("color", { length: 9 }).notNull(),
    /** 1 = the tag is a Kanban lane (spec keeps it as an integer 0/1). */
    kanban: integer("kanban").notNull().default(0),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [index("tags_company_name_idx").on(t.companyId, t.name, t.id)],
);

export const ticketTags = pgTable(
  "ticket_tags",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.tagId] }), index("ticket_tags_company_tag_idx").on(t.companyId, t.tagId)],
);
