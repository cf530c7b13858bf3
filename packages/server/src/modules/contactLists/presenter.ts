import type { ContactListDTO, ContactListImportDTO, ContactListItemDTO, ContactListImportStatus } from "@balcao/shared";
import type { contactListImports, contactListItems, contactLists } from "../../db/schema";

type ListRow = typeof contactLists.$inferSelect;
type ItemRow = typeof contactListItems.$inferSelect;
type ImportRow = Omit<typeof contactListImports.$inferSelect, "data">;

export function presentContactList(row: ListRow, contactsCount: number): ContactListDTO {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    contactsCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentContactListItem(row: ItemRow): ContactListItemDTO {
  return {
    id: row.id,
    companyId: row.companyId,
    contactListId: row.contactListId,
    name: row.name,
    number: row.number,
    email: row.email,
    isWhatsappValid: row.isWhatsappValid,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const STATUSES: readonly string[] = ["queued", "running", "done", "failed"];

/** `withErrors: false` leaves the bad rows out (progress events; the final event and GET carry them). */
export function presentImport(row: ImportRow, withErrors = true): ContactListImportDTO {
  return {
    id: row.id,
    contactListId: row.contactListId,
    fileName: row.fileName,
    status: (STATUSES.includes(row.status) ? row.status : "failed") as ContactListImportStatus,
    totalRows: row.totalRows,
    processedRows: row.processedRows,
    inserted: row.inserted,
    duplicates: row.duplicates,
    invalid: row.invalid,
    errors: withErrors ? row.errors : [],
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
