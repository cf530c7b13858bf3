import { index, integer, pgTable, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { companies, timestamps } from "./core";

/** Uploaded or received files; served only through an authorised route to users of the owning company. */
export const mediaFiles = pgTable(
  "media_files",
  {
    /** Random, so URLs are not guessable. */
    id: uuid("id").primaryKey().defaultRandom(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** Server-generated path under DATA_DIR; never derived from the client's file name. */
    storageKey: varchar("storage_key", { length: 300 }).notNull(),
    originalName: varchar("original_name", { length: 255 }).notNull().default(""),
    mimeType: varchar("mime_type", { length: 100 }).notNull(),
    size: integer("size").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("media_files_storage_key_uq").on(t.storageKey), index("media_files_company_created_idx").on(t.companyId, t.createdAt)],
);
