import { sql } from "drizzle-orm";
import { boolean, customType, index, integer, jsonb, pgTable, serial, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps, users } from "./core";

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
    // A number is in a list once (migration 0010): imports skip duplicates with ON CONFLICT DO NOTHING.
    uniqueIndex("contact_list_items_company_list_number_uq").on(t.companyId, t.contactListId, t.number),
    index("contact_list_items_unchecked_idx")
      .on(t.companyId, t.contactListId, t.id)
      .where(sql`${t.isWhatsappValid} is null`),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** A row of an import that was refused (shape of ContactListImportRowError in @balcao/shared). */
export interface ContactListImportErrorRow {
  line: number;
  field: "name" | "number" | "email";
  reason: "number_missing" | "number_invalid" | "name_too_short" | "name_too_long" | "email_invalid";
  message: string;
  value: string;
}

/** One spreadsheet upload: the file (until done), its progress and its result (migration 0010). */
export const contactListImports = pgTable(
  "contact_list_imports",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    contactListId: integer("contact_list_id")
      .notNull()
      .references(() => contactLists.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    fileName: varchar("file_name", { length: 255 }).notNull(),
    /** "xlsx" | "csv". */
    format: varchar("format", { length: 10 }).notNull(),
    /** The uploaded file, until the import ends. */
    data: bytea("data"),
    /** queued | running | done | failed. */
    status: varchar("status", { length: 20 }).notNull().default("queued"),
    totalRows: integer("total_rows"),
    /** Data rows already handled; a retried job resumes after them. */
    processedRows: integer("processed_rows").notNull().default(0),
    inserted: integer("inserted").notNull().default(0),
    duplicates: integer("duplicates").notNull().default(0),
    invalid: integer("invalid").notNull().default(0),
    errors: jsonb("errors").$type<ContactListImportErrorRow[]>().notNull().default([]),
    /** An error code of the catalogue when the whole file was refused. */
    error: varchar("error", { length: 100 }),
    ...timestamps,
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("contact_list_imports_company_list_idx").on(t.companyId, t.contactListId, t.id)],
);
