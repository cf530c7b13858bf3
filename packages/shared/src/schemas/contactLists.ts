import { z } from "zod";
import { idField, listQuery, nameField } from "./common";
import { contactNumberField, optionalEmailField } from "./contacts";

/**
 * Contact lists and their items (spec §2, §3, §5, §7), the contacts a campaign is sent to. Routes under /api
 * (admins only, docs/decisions.md "Contact lists (issue 17)"):
 *   GET    /contact-lists/?searchParam&pageNumber   → ContactListsResponse { records, hasMore }
 *   GET    /contact-lists/list                      → ContactListDTO[] (every list of the company, by name)
 *   GET    /contact-lists/sample?format=xlsx|csv    → the sample spreadsheet (attachment)
 *   GET    /contact-lists/:id                       → ContactListDTO
 *   POST   /contact-lists        (name)             → 201 ContactListDTO
 *   PUT    /contact-lists/:id    (name)             → ContactListDTO
 *   DELETE /contact-lists/:id                       → 204 (its items go with it)
 *   POST   /contact-lists/:id/upload (multipart `file`, .xlsx or .csv)
 *          → 201 ContactListImportDTO with status "done" (small file, imported in the request)
 *          → 202 ContactListImportDTO with status "queued" (imported by a job; follow the `ContactList` events)
 *   GET    /contact-lists/:id/imports/:importId     → ContactListImportDTO (progress and result)
 *   GET    /contact-list-items?searchParam&pageNumber&contactListId → ContactListItemsResponse { contacts, hasMore }
 *   GET    /contact-list-items/:id                  → ContactListItemDTO
 *   POST   /contact-list-items   (name, number, email, contactListId) → 201 ContactListItemDTO
 *   PUT    /contact-list-items/:id (name, number, email)             → ContactListItemDTO
 *   DELETE /contact-list-items/:id                  → 204
 * Socket events (room: the company's admins): `ContactList` (ContactListEvent) and `ContactListItem`
 * (ContactListItemEvent), the latter also as `ContactListItem-{contactListId}` (spec §7: "also per list").
 */

export const CONTACT_LIST_PAGE_SIZE = 20;

/** Spec §5: contact list name 2 to 50. */
export const contactListBody = z.object({ name: nameField });
export type ContactListBody = z.input<typeof contactListBody>;

export const contactListsQuery = listQuery;
/** The spec's client sends companyId; the caller's company is used (ignored). */
export const contactListsSimpleQuery = z.object({ companyId: z.unknown().optional() });

export const contactListImportParams = z.object({ id: idField, importId: idField });
export const contactListSampleQuery = z.object({ format: z.enum(["xlsx", "csv"]).optional().default("xlsx") });

/** Spec §5: list item name 2 to 50; number 8 to 50; email valid (when given). */
export const contactListItemFields = {
  name: nameField,
  number: contactNumberField,
  email: optionalEmailField.optional().default(""),
};

export const contactListItemCreateBody = z.object({
  ...contactListItemFields,
  contactListId: idField,
  /** The spec's client sends it; the caller's company is used (ignored). */
  companyId: z.unknown().optional(),
});
export type ContactListItemCreateBody = z.input<typeof contactListItemCreateBody>;

/** PUT sends the whole form; a partial body is fine. The list of an item does not change. */
export const contactListItemUpdateBody = z.object({
  name: contactListItemFields.name.optional(),
  number: contactListItemFields.number.optional(),
  email: optionalEmailField.optional(),
  contactListId: z.unknown().optional(),
  companyId: z.unknown().optional(),
});
export type ContactListItemUpdateBody = z.input<typeof contactListItemUpdateBody>;

export const contactListItemsQuery = listQuery.extend({
  contactListId: z.preprocess((v) => (v === "" ? undefined : v), idField.optional()),
});
export type ContactListItemsQuery = z.infer<typeof contactListItemsQuery>;

export const contactListDto = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  contactsCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactListDTO = z.infer<typeof contactListDto>;

export const contactListsResponse = z.object({
  records: z.array(contactListDto),
  hasMore: z.boolean(),
});
export type ContactListsResponse = z.infer<typeof contactListsResponse>;

export const contactListItemDto = z.object({
  id: z.number(),
  companyId: z.number(),
  contactListId: z.number(),
  name: z.string(),
  /** E.164 digits without '+'. */
  number: z.string(),
  email: z.string(),
  /** null = not checked yet (no connected default connection, or the check is still running). */
  isWhatsappValid: z.boolean().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactListItemDTO = z.infer<typeof contactListItemDto>;

export const contactListItemsResponse = z.object({
  contacts: z.array(contactListItemDto),
  hasMore: z.boolean(),
});
export type ContactListItemsResponse = z.infer<typeof contactListItemsResponse>;

/** Header names (folded: lower case, no accents, single spaces) that identify each column of an import. */
export const CONTACT_LIST_IMPORT_HEADERS = {
  name: ["nome", "name", "nombre", "nome completo", "full name", "nombre completo", "contato", "contact", "contacto", "cliente"],
  number: [
    "numero",
    "number",
    "telefone",
    "phone",
    "telefono",
    "celular",
    "whatsapp",
    "fone",
    "tel",
    "mobile",
    "phone number",
    "numero de telefone",
    "numero de telefono",
    "numero do whatsapp",
  ],
  email: ["email", "e-mail", "e mail", "mail", "correo", "correo electronico"],
} as const;
export type ContactListImportColumn = keyof typeof CONTACT_LIST_IMPORT_HEADERS;

/** Why a row was not imported (the web translates the code; `message` is the spec §5 text). */
export const CONTACT_LIST_IMPORT_REASONS = ["number_missing", "number_invalid", "name_too_short", "name_too_long", "email_invalid"] as const;
export type ContactListImportReason = (typeof CONTACT_LIST_IMPORT_REASONS)[number];

export const contactListImportRowError = z.object({
  /** The spreadsheet's row number (the header is row 1). */
  line: z.number(),
  field: z.enum(["name", "number", "email"]),
  reason: z.enum(CONTACT_LIST_IMPORT_REASONS),
  /** Spec §5 text: "Too Short!", "Too Long!", "Invalid email", "Invalid number", "Required". */
  message: z.string(),
  /** The cell as read (cut at 100 characters). */
  value: z.string(),
});
export type ContactListImportRowError = z.infer<typeof contactListImportRowError>;

/** At most this many bad rows are listed; `invalid` counts them all. */
export const CONTACT_LIST_IMPORT_ERRORS_MAX = 1000;

export const CONTACT_LIST_IMPORT_STATUSES = ["queued", "running", "done", "failed"] as const;
export type ContactListImportStatus = (typeof CONTACT_LIST_IMPORT_STATUSES)[number];

export const contactListImportDto = z.object({
  id: z.number(),
  contactListId: z.number(),
  fileName: z.string(),
  status: z.enum(CONTACT_LIST_IMPORT_STATUSES),
  /** Data rows in the file (null until it has been read). */
  totalRows: z.number().nullable(),
  processedRows: z.number(),
  /** New items in the list. */
  inserted: z.number(),
  /** Rows whose number was already in the list (or earlier in the file): skipped. */
  duplicates: z.number(),
  /** Rows refused (see `errors`). */
  invalid: z.number(),
  errors: z.array(contactListImportRowError),
  /** When the whole file was refused (status "failed"): an error code of the catalogue. */
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ContactListImportDTO = z.infer<typeof contactListImportDto>;

export type ContactListEvent =
  | { action: "create" | "update"; record: ContactListDTO }
  | { action: "delete"; id: number }
  /** An import started, progressed (about every second) or ended; `record` is the list with its new count at the end. */
  | { action: "import"; import: ContactListImportDTO; record?: ContactListDTO };

export type ContactListItemEvent =
  | { action: "create" | "update"; record: ContactListItemDTO }
  | { action: "delete"; id: number; contactListId: number }
  /** Many items changed at once (an import, a batch of WhatsApp checks): refetch the list's items. */
  | { action: "reload"; contactListId: number };
