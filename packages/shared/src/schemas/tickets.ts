import { z } from "zod";
import { TICKET_STATUSES } from "../constants";
import { blankAsUnset, idField, isoDate, keysetCursorParam, LIST_SEARCH_MAX, queryBoolean } from "./common";

/** Query ids arrive as a JSON list ("[1,2]"), a comma list ("1,2") or repeated params. */
export const idListParam = z.union([z.string().max(2000), z.array(z.string().max(20)).max(200)]).transform((value, ctx) => {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (value.trim().startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(value);
      items = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      ctx.addIssue({ code: "custom", message: "Invalid id list" });
      return z.NEVER;
    }
  } else items = value.split(",").filter((s) => s.trim() !== "");
  // Same rule as idField: decimal digits only ("0x5" and "1e3" are not ids).
  const ids = items.map((v) => (typeof v === "number" ? v : typeof v === "string" && /^[0-9]{1,10}$/.test(v.trim()) ? Number(v) : Number.NaN));
  if (ids.some((n) => !Number.isInteger(n) || n <= 0 || n > 2_147_483_647)) {
    ctx.addIssue({ code: "custom", message: "Invalid id list" });
    return z.NEVER;
  }
  return [...new Set(ids)];
});

const isoDay = isoDate;

export const ticketListQuery = z.object({
  searchParam: z.string().trim().max(LIST_SEARCH_MAX).optional().default(""),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  /** Keyset alternative to pageNumber (which stays for API compatibility): a previous page's `nextCursor`. */
  cursor: keysetCursorParam.optional(),
  status: z.enum(TICKET_STATUSES).optional(),
  tags: idListParam.optional(),
  users: idListParam.optional(),
  queueIds: idListParam.optional(),
  date: isoDay.optional(),
  updatedAt: isoDay.optional(),
  showAll: queryBoolean.optional(),
  withUnreadMessages: queryBoolean.optional(),
});
export type TicketListQuery = z.input<typeof ticketListQuery>;

/** The new-ticket and transfer forms send "" for a queue, user or connection left unselected: not given. */
const optionalIdField = blankAsUnset(idField.nullable());

export const ticketCreateBody = z.object({
  contactId: idField,
  queueId: optionalIdField,
  userId: optionalIdField,
  status: z.literal("open").optional().default("open"),
  whatsappId: optionalIdField,
});
export type TicketCreateBody = z.input<typeof ticketCreateBody>;

/** PUT /tickets/:id — the transition is inferred from the fields (spec §4; docs/api.md). */
export const ticketUpdateBody = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  userId: optionalIdField,
  queueId: optionalIdField,
  whatsappId: optionalIdField,
});
export type TicketUpdateBody = z.input<typeof ticketUpdateBody>;

export const ticketUuidParams = z.object({ uuid: z.string().uuid() });

export const ticketContactDto = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string().nullable(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
});
export type TicketContactDTO = z.infer<typeof ticketContactDto>;

export const ticketDto = z.object({
  id: z.number(),
  uuid: z.string(),
  status: z.enum(["pending", "open", "closed"]),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  queueId: z.number().nullable(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  contactId: z.number(),
  contact: ticketContactDto,
  tags: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  code: z.string().nullable(),
  lastMessage: z.string(),
  unreadMessages: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TicketDTO = z.infer<typeof ticketDto>;

export const ticketListResponse = z.object({
  tickets: z.array(ticketDto),
  hasMore: z.boolean(),
  /** Send back as `cursor` for the next page (null on the last one). */
  nextCursor: z.string().nullable(),
});
export type TicketListResponse = z.infer<typeof ticketListResponse>;

/** Socket `ticket` event payloads (spec §7). */
export type TicketEvent =
  { action: "update"; ticket: TicketDTO } | { action: "delete"; ticketId: number } | { action: "updateUnread"; ticketId: number };
