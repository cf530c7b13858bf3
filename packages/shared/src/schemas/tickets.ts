import { z } from "zod";
import { TICKET_STATUSES } from "../constants";
import { blankAsUnset, idField, isoDate, LIST_SEARCH_MAX, queryBoolean } from "./common";

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

export interface TicketContactDTO {
  id: number;
  name: string;
  number: string | null;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
}

export interface TicketDTO {
  id: number;
  uuid: string;
  status: "pending" | "open" | "closed";
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  contactId: number;
  contact: TicketContactDTO;
  tags: { id: number; name: string; color: string }[];
  isGroup: boolean;
  chatbot: boolean;
  code: string | null;
  lastMessage: string;
  unreadMessages: number;
  createdAt: string;
  updatedAt: string;
}

export interface TicketListResponse {
  tickets: TicketDTO[];
  hasMore: boolean;
}

/** Socket `ticket` event payloads (spec §7). */
export type TicketEvent =
  { action: "update"; ticket: TicketDTO } | { action: "delete"; ticketId: number } | { action: "updateUnread"; ticketId: number };
