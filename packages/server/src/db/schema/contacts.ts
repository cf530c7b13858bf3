import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { connections } from "./connections";
import { companies, timestamps } from "./core";
import { foldIndexExpression } from "../search";

export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 100 }).notNull(),
    /** E.164 digits (group id for groups); null for LID/BSUID-only contacts. A display attribute: identity is contact_identities. */
    number: varchar("number", { length: 50 }),
    email: varchar("email", { length: 254 }).notNull().default(""),
    profilePicUrl: text("profile_pic_url").notNull().default(""),
    isGroup: boolean("is_group").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("contacts_company_number_uq")
      .on(t.companyId, t.number)
      .where(sql`${t.number} is not null`),
    // Ordered list and prefix search; accent-insensitive search can add an unaccent/trigram index later.
    index("contacts_company_name_idx").on(t.companyId, t.name, t.id),
    // Substring search on names ignoring case and accents (db/search.ts).
    index("contacts_name_trgm_idx").using("gin", foldIndexExpression(t.name)),
    // Substring search on number digits (ticket search; migration 0015).
    index("contacts_number_trgm_idx").using("gin", sql`${t.number} gin_trgm_ops`),
  ],
);

/** The spec's extraInfo (reference ContactCustomFields). */
export const contactExtraInfo = pgTable(
  "contact_extra_info",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 100 }).notNull(),
    value: text("value").notNull().default(""),
    ...timestamps,
  },
  (t) => [index("contact_extra_info_company_contact_idx").on(t.companyId, t.contactId)],
);

/** Every provider identifier a contact is known by (channels.md §3); inbound resolution matches here first. */
export const contactIdentities = pgTable(
  "contact_identities",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    /** phone | wa_lid | wa_jid | cloud_id */
    kind: varchar("kind", { length: 16 }).notNull(),
    value: varchar("value", { length: 128 }).notNull(),
    /** Where it was learnt; Cloud API user ids are business-scoped, so the connection matters. */
    connectionId: integer("connection_id").references(() => connections.id, { onDelete: "set null" }),
    source: varchar("source", { length: 30 }).notNull().default(""),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("contact_identities_company_kind_value_uq").on(t.companyId, t.kind, t.value),
    index("contact_identities_company_contact_idx").on(t.companyId, t.contactId),
  ],
);
