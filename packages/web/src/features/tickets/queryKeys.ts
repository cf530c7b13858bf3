import type { TicketStatus } from "@balcao/shared";

/** Filters of one ticket list; each distinct set is its own cache entry (and socket patch target). */
export interface TicketListFilters {
  status?: TicketStatus;
  searchParam?: string;
  tags?: number[];
  users?: number[];
  queueIds?: number[];
  showAll?: boolean;
}

/** TanStack Query keys of the tickets domain (kept beside the feature; see api/queryKeys.ts for the pattern). */
export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => ["tickets", "list"] as const,
  list: (filters: TicketListFilters) => ["tickets", "list", filters] as const,
  details: () => ["tickets", "detail"] as const,
  detail: (uuid: string) => ["tickets", "detail", uuid] as const,
  unread: ["tickets", "unread"] as const,
  tagOptions: ["tickets", "tag-options"] as const,
  userOptions: ["tickets", "user-options"] as const,
  contactSearch: (searchParam: string) => ["tickets", "contact-search", searchParam] as const,
};
