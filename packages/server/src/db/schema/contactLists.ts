import { boolean, index, integer, pgTable, serial, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps } from "./core";

export const contactLists = pgTable(
  "contact_lists",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 100 }).notNull(),
    ...timestamps,
  },
  (t) => [index("contact_lists_company_name_idx").on(t.companyId, t.name, t.id)],
);

export const contactListItems = pgTable(
  "contact_list_items",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    contactListId: integer("contact_list_id")
      .notNull()
      .references(() => contactLists.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 100 }).notNull(),
    number: varchar("number", { length: 50 }).notNull(),
    email: varchar("email", { length: 254 }).notNull().default(""),
    /** null = not checked yet. */
    isWhatsappValid: boolean("is_whatsapp_valid"),
    ...timestamps,
  },
  (t) => [
    index("contact_list_items_company_list_name_idx").on(t.companyId, t.contactListId, t.name, t.id),
    index("contact_list_items_company_list_number_idx").on(t.companyId, t.contactListId, t.number),
  ],
);
