/**
 * The live ticket list of spec §4, as pure functions over the cached pages plus one function that applies
 * a socket event to every cached list. Rules:
 * - an update adds or replaces the ticket in a list it belongs to (status/tab, ownership unless show-all,
 *   selected queues) and removes it from lists it no longer belongs to;
 * - a new incoming message moves the ticket to the top (with its unread count);
 * - delete removes it; updateUnread zeroes its counter; a contact update refreshes the rows' contact.
 * Search lists (text, tags or users filters, or no status) cannot be matched locally: rows there are only
 * replaced in place or removed.
 */
import { can, type TicketContactDTO, type TicketDTO, type TicketEvent, type TicketListResponse, type UserDTO } from "@balcao/shared";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { ticketKeys, type TicketListFilters } from "./queryKeys";

export type TicketPages = InfiniteData<TicketListResponse, unknown>;
type Me = Pick<UserDTO, "id" | "profile">;

/** Whether a list's membership can be decided locally (status tabs) or only by the server (search). */
export function isSearchList(filters: TicketListFilters): boolean {
  return !filters.status || !!filters.searchParam || (filters.tags?.length ?? 0) > 0 || (filters.users?.length ?? 0) > 0;
}

/**
 * Whether `ticket` belongs in the status list described by `filters` for `me` (mirrors GET /tickets):
 * open/closed lists hold the caller's own tickets unless an admin or supervisor turned show-all on (the
 * socket rooms already limit a supervisor to its queues); pending lists hold
 * every visible pending ticket; a queue selection keeps tickets of those queues plus queue-less ones.
 */
export function belongsToList(ticket: TicketDTO, filters: TicketListFilters, me: Me): boolean {
  if (filters.status && ticket.status !== filters.status) return false;
  if (filters.status !== "pending" && !(can(me, "tickets-manager:showall") && filters.showAll) && ticket.userId !== me.id) return false;
  const queues = filters.queueIds ?? [];
  if (queues.length > 0 && ticket.queueId !== null && !queues.includes(ticket.queueId)) return false;
  return true;
}

const hasTicket = (data: TicketPages, id: number) => data.pages.some((p) => p.tickets.some((t) => t.id === id));

export function removeTicket(data: TicketPages, ticketId: number): TicketPages {
  if (!hasTicket(data, ticketId)) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.filter((t) => t.id !== ticketId) })) };
}

function replaceTicket(data: TicketPages, ticket: TicketDTO): TicketPages {
  return { ...data, pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => (t.id === ticket.id ? ticket : t)) })) };
}

function prependTicket(data: TicketPages, ticket: TicketDTO): TicketPages {
  const without = removeTicket(data, ticket.id);
  if (without.pages.length === 0) return { pageParams: [null], pages: [{ tickets: [ticket], hasMore: false, nextCursor: null }] };
  const [first, ...rest] = without.pages;
  return { ...without, pages: [{ ...first, tickets: [ticket, ...first.tickets] }, ...rest] };
}

/** Applies a changed ticket to one list; `toTop` (a new message) moves it to the top. */
export function upsertTicket(data: TicketPages, ticket: TicketDTO, filters: TicketListFilters, me: Me, toTop = false): TicketPages {
  const present = hasTicket(data, ticket.id);
  if (isSearchList(filters)) {
    if (!present) return data;
    return toTop ? prependTicket(data, ticket) : replaceTicket(data, ticket);
  }
  if (!belongsToList(ticket, filters, me)) return removeTicket(data, ticket.id);
  if (present && !toTop) return replaceTicket(data, ticket);
  return prependTicket(data, ticket);
}

export function zeroUnread(data: TicketPages, ticketId: number): TicketPages {
  if (!hasTicket(data, ticketId)) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, tickets: p.tickets.map((t) => (t.id === ticketId ? { ...t, unreadMessages: 0 } : t)) })) };
}

/** Contact fields the `contact` socket event carries (a ContactDTO; only the row's fields are taken). */
export type ContactPatch = Pick<TicketContactDTO, "id"> & Partial<TicketContactDTO>;

export function patchContact(data: TicketPages, contact: ContactPatch): TicketPages {
  if (!data.pages.some((p) => p.tickets.some((t) => t.contactId === contact.id))) return data;
  return {
    ...data,
    pages: data.pages.map((p) => ({
      ...p,
      tickets: p.tickets.map((t) => (t.contactId === contact.id ? { ...t, contact: mergeContact(t.contact, contact) } : t)),
    })),
  };
}

function mergeContact(current: TicketContactDTO, patch: ContactPatch): TicketContactDTO {
  return {
    ...current,
    name: patch.name ?? current.name,
    number: patch.number !== undefined ? patch.number : current.number,
    email: patch.email ?? current.email,
    profilePicUrl: patch.profilePicUrl ?? current.profilePicUrl,
  };
}

/** What reaches the ticket caches: the `ticket` event, a new message's ticket, or a contact update. */
export type TicketCacheEvent = TicketEvent | { action: "message"; ticket: TicketDTO } | { action: "contact"; contact: ContactPatch };

/** Unread tickets for the top-bar bell: open/pending tickets with unread messages not owned by someone else. */
export function countsForBell(ticket: TicketDTO, me: Me): boolean {
  return ticket.unreadMessages > 0 && ticket.status !== "closed" && (ticket.userId === null || ticket.userId === me.id);
}

function patchUnreadList(data: TicketListResponse, event: TicketCacheEvent, me: Me): TicketListResponse {
  switch (event.action) {
    case "delete":
    case "updateUnread": {
      const tickets = data.tickets.filter((t) => t.id !== event.ticketId);
      return tickets.length === data.tickets.length ? data : { ...data, tickets };
    }
    case "contact":
      return {
        ...data,
        tickets: data.tickets.map((t) => (t.contactId === event.contact.id ? { ...t, contact: mergeContact(t.contact, event.contact) } : t)),
      };
    default: {
      const others = data.tickets.filter((t) => t.id !== event.ticket.id);
      return { ...data, tickets: countsForBell(event.ticket, me) ? [event.ticket, ...others] : others };
    }
  }
}

/** Applies one event to every cached ticket list, the unread list and the opened ticket's detail. */
export function patchTicketsCache(queryClient: QueryClient, event: TicketCacheEvent, me: Me): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ticketKeys.lists() })) {
    const filters = (query.queryKey[2] ?? {}) as TicketListFilters;
    queryClient.setQueryData<TicketPages>(query.queryKey, (old) => {
      if (!old) return old;
      switch (event.action) {
        case "delete":
          return removeTicket(old, event.ticketId);
        case "updateUnread":
          return zeroUnread(old, event.ticketId);
        case "contact":
          return patchContact(old, event.contact);
        case "update":
          return upsertTicket(old, event.ticket, filters, me);
        case "message":
          return upsertTicket(old, event.ticket, filters, me, true);
      }
    });
  }
  queryClient.setQueryData<TicketListResponse>(ticketKeys.unread, (old) => (old ? patchUnreadList(old, event, me) : old));
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ticketKeys.details() })) {
    queryClient.setQueryData<TicketDTO>(query.queryKey, (old) => {
      if (!old) return old;
      if ((event.action === "update" || event.action === "message") && event.ticket.id === old.id) return event.ticket;
      if (event.action === "updateUnread" && event.ticketId === old.id) return { ...old, unreadMessages: 0 };
      if (event.action === "contact" && event.contact.id === old.contactId) return { ...old, contact: mergeContact(old.contact, event.contact) };
      return old;
    });
  }
}

/** Rows of a list (pages flattened, duplicates from shifting pages dropped). */
export function flattenTickets(data: TicketPages | undefined): TicketDTO[] {
  const seen = new Set<number>();
  return (data?.pages ?? []).flatMap((p) => p.tickets).filter((t) => !seen.has(t.id) && seen.add(t.id));
}

/** Badge text of a tab: the loaded rows, with a '+' when more pages exist (there is no COUNT endpoint). */
export function countLabel(data: TicketPages | undefined): string {
  const count = flattenTickets(data).length;
  const hasMore = data?.pages.at(-1)?.hasMore ?? false;
  return hasMore ? `${count}+` : String(count);
}
